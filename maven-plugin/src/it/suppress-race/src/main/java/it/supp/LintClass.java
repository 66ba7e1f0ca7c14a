package it.supp;

import android.annotation.SuppressLint;

/** @SuppressLint on the class. */
@SuppressLint({"NewApi", "all"})
public class LintClass {
    private int count;

    public synchronized void increment() {
        count++;
    }

    public int get() {
        return count;
    }
}
