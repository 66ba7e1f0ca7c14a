package com.acme.a;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Containers: one made thread-safe by the constructor, one plain. */
public class Registry {
  public final Map<String, Object> safe;
  public final Map<String, Object> plain = new HashMap<>();

  public Registry() {
    safe = new ConcurrentHashMap<>();
  }

  public void register(String key, Object value) {
    plain.put(key, value);
  }

  public synchronized void registerUnderLock(String key, Object value) {
    plain.put(key, value);
  }
}
