package com.acme.b;

import com.acme.a.Bag;

/** Gives under its lock, takes and counts without: only `remove` may forget the bag's lock. */
public class BagPool {
  private final Bag<String> idle = new Bag<>(false);

  public synchronized void give(String s) {
    idle.add(s);
  }

  public void take(String s) {
    idle.remove(s);
  }

  public int count() {
    return idle.size();
  }
}
