package com.acme.b;

import com.acme.a.Cells;
import com.acme.a.Splitter;

/**
 * Has `a`'s `Splitter` fill its cells on two threads it joins: they race with each other on the
 * left cell, but they are over when `fill` returns, so the getters, on the caller's thread, do
 * not race with them.
 */
public class SplitCounts {
  private final Cells cells = new Cells();

  public void fill() throws InterruptedException {
    Splitter.fillBoth(cells);
  }

  public int left() {
    return cells.left;
  }

  public int right() {
    return cells.right;
  }
}
