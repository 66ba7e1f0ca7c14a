package com.acme.a;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A container field made thread-safe by the constructor, which downstream code never calls. */
public class Shelf {
  public final Map<String, Object> items;

  public Shelf() {
    items = new ConcurrentHashMap<>();
  }
}
