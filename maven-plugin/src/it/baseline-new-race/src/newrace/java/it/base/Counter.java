package it.base;

import java.util.concurrent.atomic.AtomicLong;

/** increment() is synchronized, so the class is used concurrently; get() reads without the lock. */
public class Counter {
    private final AtomicLong reads = new AtomicLong();

    private int count;

    /** Lines added above the race since the baseline was written. */
    public long reads() {
        return reads.get();
    }

    public synchronized void increment() {
        count++;
    }

    public int get() {
        reads.incrementAndGet();
        return count;
    }
}
