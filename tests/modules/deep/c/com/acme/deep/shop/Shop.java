package com.acme.deep.shop;

import com.acme.deep.Box;

/** Names only `Box`: `Cell`, where the race is, is known to this module through summaries. */
public class Shop {
  private final Box box = new Box();

  public synchronized void sell(int amount) {
    box.put(amount);
  }

  public void refund(int amount) {
    box.put(-amount);
  }
}
