package com.acme.b;

import com.acme.a.TallyTap;
import com.acme.a.Sink;
import com.acme.a.Tap;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Its tap field is only ever given the class's shared tap, a static final holding a TallyTap
 * (kept as an Object): a call through the field counts.
 */
@ThreadSafe
public class SharedTapSampler {
  private static final Object SHARED = new TallyTap();
  private final Tap tap;
  private final Sink total = new Sink();

  public SharedTapSampler() {
    tap = (Tap) SHARED;
  }

  public void sample() {
    tap.pass(total);
  }
}
