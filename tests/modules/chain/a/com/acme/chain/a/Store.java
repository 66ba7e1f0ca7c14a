package com.acme.chain.a;

public class Store {
  private long total;
  private Object last;

  public void add(long amount, Object from) {
    total += amount;
    last = from;
  }

  public long total() {
    return total;
  }
}
