package com.acme.b;

import com.acme.a.CountingTap;
import com.acme.a.Sink;
import com.acme.a.Tap;
import javax.annotation.concurrent.ThreadSafe;

/** Its final tap field is only ever given a CountingTap: a call through it counts. */
@ThreadSafe
public class FieldSampler {
  private final Tap tap = new CountingTap();
  private final Sink total = new Sink();

  public void sample() {
    tap.pass(total);
  }
}
