package com.acme.b;

import com.acme.a.Worker;

/**
 * Gives itself to the upstream Worker to run on the UI thread, while a lambda it hands to the
 * background changes the same count: the UI thread's run() races with the background write.
 */
public class Refresher implements Runnable {
  private int shown;

  public void refresh() {
    Worker.onUiThread(this);
  }

  public void reset() {
    Worker.inBackground(() -> shown = 0);
  }

  @Override
  public void run() {
    shown++;
  }
}
