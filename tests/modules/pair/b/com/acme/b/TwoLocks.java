package com.acme.b;

import com.acme.a.Slot;
import javax.annotation.concurrent.ThreadSafe;

/** Writes the upstream slot under two different locks of its own: a race (lock identities). */
@ThreadSafe
public class TwoLocks {
  private final Slot slot = new Slot();
  private final Object mFirst = new Object();
  private final Object mSecond = new Object();

  public void setFirst(int v) {
    slot.setUnder(mFirst, v);
  }

  public void setSecond(int v) {
    slot.setUnder(mSecond, v);
  }
}
