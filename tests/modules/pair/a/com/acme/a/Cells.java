package com.acme.a;

/** Two plain cells, filled by `Splitter`'s threads. */
public class Cells {
  public int left;
  public int right;
}
