package it.safe;

/** Every access to count holds the monitor. */
public class SafeCounter {
    private int count;

    public synchronized void increment() {
        count++;
    }

    public synchronized int get() {
        return count;
    }
}
