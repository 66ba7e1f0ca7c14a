package it.base;

/** A race added after the baseline was written. */
public class Gauge {
    private long level;

    public synchronized void set(long value) {
        level = value;
    }

    public long level() {
        return level;
    }
}
