package com.acme.a;

/** A tap that keeps a tally in the sink it is given. */
public class TallyTap extends Tap {
  @Override
  public void pass(Sink into) {
    into.samples++;
  }
}
