package com.acme.a;

/** A thread counting ticks in its run(): its counter is its own until others read it. */
public class Ticker extends Thread {
  private int ticks;
  private int laps;

  @Override
  public void run() {
    while (!isInterrupted()) {
      ticks++;
      laps++;
    }
  }

  public int ticks() {
    return ticks;
  }

  /** Starts the ticker it is given: the summary carries the run() on the parameter. */
  public static void launch(Ticker ticker) {
    ticker.start();
  }
}
