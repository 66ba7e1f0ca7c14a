package dev.racer.sample.app;

import dev.racer.sample.annotations.ThreadSafe;

/** RACY (inside one module): {@code total} is written and read without any lock. */
@ThreadSafe
public class Stats {
    private long total;

    public void add(long value) {
        total += value;
    }

    public long total() {
        return total;
    }
}
