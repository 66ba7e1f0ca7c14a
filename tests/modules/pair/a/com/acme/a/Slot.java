package com.acme.a;

/** Writes its value under the lock its caller gives: downstream, the lock is the caller's path. */
public class Slot {
  private int value;

  public void setUnder(Object lock, int v) {
    synchronized (lock) {
      value = v;
    }
  }
}
