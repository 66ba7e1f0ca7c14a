package com.acme.b;

import com.acme.a.Base;

/** Inherits @ThreadSafe from a class of the upstream module. */
public class Derived extends Base {
  private int mine;

  public void work() {
    touch();
    mine = state;
  }
}
