package it.racy;

/** Each method takes a different lock around the same field: a race only with racer.differentLocks. */
public class TwoLocks {
    private final Object lock = new Object();
    private int value;

    public synchronized void setUnderMonitor(int v) {
        value = v;
    }

    public void setUnderLock(int v) {
        synchronized (lock) {
            value = v;
        }
    }
}
