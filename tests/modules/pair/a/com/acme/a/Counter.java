package com.acme.a;

/** Plain library class: no locks, no annotations. */
public class Counter {
  private int count;
  private volatile int seen;

  public void increment() {
    count++;
    seen = count;
  }

  public int get() {
    return count;
  }

  public Counter self() {
    return this;
  }
}
