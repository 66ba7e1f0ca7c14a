package com.acme.b;

import com.acme.a.CountingSink;
import com.acme.a.Sink;
import javax.annotation.concurrent.ThreadSafe;

/** The sink it allocates is a CountingSink: its take() writes the shared total's samples. */
@ThreadSafe
public class Sampler {
  private final Sink total = new Sink();

  public void sample() {
    Sink sink = new CountingSink();
    sink.take(total);
  }
}
