package com.acme.a;

import javax.annotation.concurrent.ThreadSafe;

/** @ThreadSafe applies to subclasses in other modules too. */
@ThreadSafe
public abstract class Base {
  protected int state;

  protected void touch() {
    state++;
  }
}
