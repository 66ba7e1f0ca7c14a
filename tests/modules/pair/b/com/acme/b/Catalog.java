package com.acme.b;

import com.acme.a.Shelf;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Reaches an upstream container field directly, on a shelf it is given: only the field
 * reference leads to the constructor that makes the container thread-safe. Safe.
 */
@ThreadSafe
public class Catalog {
  private final Shelf shelf;

  public Catalog(Shelf shelf) {
    this.shelf = shelf;
  }

  public void add(String key) {
    shelf.items.put(key, this);
  }
}
