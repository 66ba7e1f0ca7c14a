package com.acme.app;

import javax.annotation.concurrent.ThreadSafe;

@ThreadSafe
public class Tally {
  public void record() {
    java.racerdemo.Counter.bump();
  }
}
