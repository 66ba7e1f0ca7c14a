package it.supp;

import android.annotation.SuppressLint;

/** @SuppressLint on the racy method. */
public class LintMethod {
    private int count;

    public synchronized void increment() {
        count++;
    }

    @SuppressLint("THREAD_SAFETY_VIOLATION")
    public int get() {
        return count;
    }
}
