package com.acme.a;

/** Counts each sample into the sink it is given. */
public class CountingSink extends Sink {
  @Override
  public void take(Sink into) {
    into.samples++;
  }
}
