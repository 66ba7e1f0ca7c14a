package it.supp;

import dev.racer.annotations.SuppressRace;

/** @SuppressRace on the racy method. */
public class RaceMethod {
    private int count;

    public synchronized void increment() {
        count++;
    }

    @SuppressRace(reason = "a stale count is fine for the status page")
    public int get() {
        return count;
    }
}
