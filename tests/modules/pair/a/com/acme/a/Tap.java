package com.acme.a;

/** Lets samples through and keeps nothing; its subclass CountingTap counts them. */
public class Tap {
  public void pass(Sink into) {}
}
