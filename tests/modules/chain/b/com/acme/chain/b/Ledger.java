package com.acme.chain.b;

import com.acme.chain.a.Store;

public class Ledger {
  final Store store = new Store();

  public void record(long amount) {
    store.add(amount, this);
  }

  public synchronized void recordUnderLock(long amount) {
    store.add(amount, this);
  }

  public long balance() {
    return store.total();
  }
}
