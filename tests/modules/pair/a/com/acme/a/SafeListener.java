package com.acme.a;

import javax.annotation.concurrent.ThreadSafe;

/** An annotated interface: calls to it are not reported. */
@ThreadSafe
public interface SafeListener {
  void changed(int value);
}
