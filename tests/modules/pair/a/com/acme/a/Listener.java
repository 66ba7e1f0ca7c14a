package com.acme.a;

/** An interface that is not annotated: calls to it from @ThreadSafe code are reported. */
public interface Listener {
  void changed(int value);
}
