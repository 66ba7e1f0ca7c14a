package it.supp;

import dev.racer.annotations.SuppressRace;

/** @SuppressRace on the class. */
@SuppressRace(value = "THREAD_SAFETY_VIOLATION", reason = "only one thread calls get()")
public class RaceClass {
    private int count;

    public synchronized void increment() {
        count++;
    }

    public int get() {
        return count;
    }
}
