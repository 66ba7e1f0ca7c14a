package dev.racer.sample.lib;

import dev.racer.sample.annotations.ThreadSafe;

/** Safe: every access to {@code count} holds the same lock. */
@ThreadSafe
public class SafeCounter {
    private final Object lock = new Object();
    private int count;

    public void increment() {
        synchronized (lock) {
            count++;
        }
    }

    public int get() {
        synchronized (lock) {
            return count;
        }
    }
}
