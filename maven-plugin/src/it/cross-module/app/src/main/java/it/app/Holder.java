package it.app;

import it.lib.Box;

/**
 * locked() makes the class concurrent; unlocked() writes box.value (inside lib's Box.set) without
 * the lock. The write is only visible through lib's summaries.
 */
public class Holder {
    private final Box box = new Box();

    public synchronized void locked() {
        box.set(1);
    }

    public void unlocked() {
        box.set(2);
    }
}
