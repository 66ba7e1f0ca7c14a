package it.supp;

import dev.racer.annotations.SuppressRace;

/** @SuppressRace on the field. */
public class RaceField {
    @SuppressRace("racer")
    private int count;

    public synchronized void increment() {
        count++;
    }

    public int get() {
        return count;
    }
}
