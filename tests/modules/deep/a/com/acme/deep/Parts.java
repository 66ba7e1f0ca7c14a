package com.acme.deep;

/** Kept in a file named after another class: trace steps in `Cell` and `Bumps` name Parts.java. */
public class Parts {
  public static int count() {
    return 0;
  }
}

class Cell {
  private final Tally tally = new Tally();

  void add(int amount) {
    Bumps.up(tally, amount);
  }
}

class Tally {
  int value;
}

/** Named by no access path: only the trace through `up` leads here. */
class Bumps {
  static void up(Tally tally, int amount) {
    tally.value += amount;
  }
}
