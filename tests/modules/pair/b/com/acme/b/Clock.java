package com.acme.b;

import com.acme.a.Ticker;

/**
 * Starts an upstream thread through an upstream helper, then reads its counter: the read races
 * with the ticker's run(); the ticker's own writes do not race with themselves.
 */
public class Clock {
  private final Ticker ticker = new Ticker();

  public void start() {
    Ticker.launch(ticker);
  }

  public int now() {
    return ticker.ticks();
  }
}
