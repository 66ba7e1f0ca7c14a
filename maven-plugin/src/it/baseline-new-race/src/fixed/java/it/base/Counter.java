package it.base;

/** The race the baseline lists is fixed: get() holds the lock too. */
public class Counter {
    private int count;

    public synchronized void increment() {
        count++;
    }

    public synchronized int get() {
        return count;
    }
}
