package com.acme.b;

import com.acme.a.Counter;

/** No concurrency evidence: nothing reported. */
public class Plain {
  private final Counter counter = new Counter();

  public void update() {
    counter.increment();
  }
}
