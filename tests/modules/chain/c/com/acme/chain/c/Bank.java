package com.acme.chain.c;

import com.acme.chain.a.Store;
import com.acme.chain.b.Ledger;
import javax.annotation.concurrent.ThreadSafe;

@ThreadSafe
public class Bank {
  private final Ledger ledger = new Ledger();
  private final Store direct = new Store();

  public void deposit(long amount) {
    ledger.record(amount);
  }

  public void depositSafely(long amount) {
    ledger.recordUnderLock(amount);
  }

  public long balance() {
    return ledger.balance();
  }

  public void audit() {
    direct.add(0, null);
  }
}
