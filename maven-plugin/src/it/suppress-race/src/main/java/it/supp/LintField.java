package it.supp;

import android.annotation.SuppressLint;

/** @SuppressLint on the field. */
public class LintField {
    @SuppressLint("racer")
    private int count;

    public synchronized void increment() {
        count++;
    }

    public int get() {
        return count;
    }
}
