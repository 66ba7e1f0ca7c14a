package com.acme.b;

import com.acme.a.Gauge;

/** Reads, without the lock, the inherited field that Gauge's synchronized raise() writes. */
public class GaugeReader extends Gauge {
  public long read() {
    return level;
  }
}
