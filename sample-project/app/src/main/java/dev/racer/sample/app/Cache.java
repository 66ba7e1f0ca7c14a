package dev.racer.sample.app;

import dev.racer.sample.annotations.ThreadSafe;
import dev.racer.sample.lib.Counter;

/** Safe: lock-protected accesses (synchronized methods), including the calls into lib. */
@ThreadSafe
public class Cache {
    private final Counter hits = new Counter();
    private String value;

    public synchronized void put(String v) {
        value = v;
    }

    public synchronized String get() {
        hits.increment();
        return value;
    }

    public synchronized int hits() {
        return hits.get();
    }
}
