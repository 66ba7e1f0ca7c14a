package com.acme.a;

/** Takes samples and keeps nothing; its subclass CountingSink counts them. */
public class Sink {
  public int samples;

  public void take(Sink into) {}
}
