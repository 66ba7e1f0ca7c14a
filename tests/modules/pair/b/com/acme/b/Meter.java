package com.acme.b;

import com.acme.a.Worker;

/**
 * Gives upstream helpers lambdas they run during the call: `timed` holds no lock, so the
 * lambda's write is unprotected; `locked` runs it under a monitor.
 */
public class Meter {
  private int ticks;
  private int lockedTicks;

  public void tick() {
    Worker.timed(() -> ticks++);
  }

  public void lockedTick() {
    Worker.locked(() -> lockedTicks++);
  }

  public synchronized int ticks() {
    return ticks + lockedTicks;
  }
}
