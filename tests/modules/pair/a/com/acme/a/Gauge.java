package com.acme.a;

import javax.annotation.concurrent.ThreadSafe;

/** A @ThreadSafe class whose subclasses live downstream (see com.acme.b.GaugeReader). */
@ThreadSafe
public class Gauge {
  protected long level;

  public synchronized void raise() {
    level++;
  }
}
