package it.base;

/** increment() is synchronized, so the class is used concurrently; get() reads without the lock. */
public class Counter {
    private int count;

    public synchronized void increment() {
        count++;
    }

    public int get() {
        return count;
    }
}
