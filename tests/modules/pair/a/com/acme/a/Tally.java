package com.acme.a;

/** Writes its field in a private helper: downstream sees it through the public caller. */
public class Tally {
  private int total;

  public void add(int n) {
    bump(n);
  }

  private void bump(int n) {
    total += n;
  }
}
