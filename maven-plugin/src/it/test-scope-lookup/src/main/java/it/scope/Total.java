package it.scope;

/** Thread-safe: every access under the monitor. */
public class Total {
    private long sum;

    public synchronized void add(long n) {
        sum += n;
    }

    public synchronized long get() {
        return sum;
    }
}
