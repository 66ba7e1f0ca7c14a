package com.acme.a;

/** A tap that counts what passes into the sink it is given. */
public class CountingTap extends Tap {
  @Override
  public void pass(Sink into) {
    into.samples++;
  }
}
