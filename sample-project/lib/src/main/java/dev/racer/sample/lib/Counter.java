package dev.racer.sample.lib;

/** A plain counter. Not thread-safe, and says nothing about threads: racer reports nothing here. */
public class Counter {
    private int count;

    public void increment() {
        count++;
    }

    public int get() {
        return count;
    }
}
