package it.supp;

import dev.racer.annotations.SuppressRace;

/** Suppresses another kind of issue: the race is still new. */
public class WrongKind {
    private int count;

    public synchronized void increment() {
        count++;
    }

    @SuppressRace("GUARDEDBY_VIOLATION")
    public int get() {
        return count;
    }
}
