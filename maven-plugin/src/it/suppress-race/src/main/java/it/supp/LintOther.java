package it.supp;

import android.annotation.SuppressLint;

/** An Android Lint suppression of something else: the race is still new. */
public class LintOther {
    private int count;

    public synchronized void increment() {
        count++;
    }

    @SuppressLint("NewApi")
    public int get() {
        return count;
    }
}
