package com.acme.b;

import com.acme.a.Tally;

/** Races on the upstream field that a private upstream helper writes. */
public class Totals {
  private final Tally tally = new Tally();

  public synchronized void addSafely() {
    tally.add(1);
  }

  public void addRacily() {
    tally.add(2);
  }
}
