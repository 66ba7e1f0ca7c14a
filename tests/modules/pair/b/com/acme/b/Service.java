package com.acme.b;

import com.acme.a.Counter;
import com.acme.a.Listener;
import com.acme.a.Registry;
import com.acme.a.SafeListener;
import javax.annotation.concurrent.ThreadSafe;

@ThreadSafe
public class Service {
  private final Counter counter = new Counter();
  private final Registry registry = new Registry();
  private Listener listener;
  private SafeListener safeListener;

  public void update() {
    counter.increment();
  }

  public int current() {
    return counter.get();
  }

  public void chained() {
    counter.self().increment();
  }

  public void remember(String key) {
    registry.safe.put(key, this);
    registry.plain.put(key, this);
  }

  public void rememberViaLibrary(String key) {
    registry.register(key, this);
  }

  public void rememberUnderLock(String key) {
    registry.registerUnderLock(key, this);
  }

  public void notifyListeners() {
    listener.changed(1);
    safeListener.changed(1);
  }

  public void notifyOne(Listener l) {
    l.changed(2);
  }

  public void notifySafe(SafeListener l) {
    l.changed(2);
  }

  public void setListener(Listener l) {
    listener = l;
  }

  public int owned() {
    Counter local = new Counter();
    local.increment();
    return local.get();
  }
}
