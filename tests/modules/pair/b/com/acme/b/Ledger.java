package com.acme.b;

import com.acme.a.InPlace;
import com.acme.a.Queues;

/**
 * Tasks given to the library's direct executors run in the calling thread (mLines); those on
 * its pool race with the plain write (mPooled).
 */
public class Ledger {
    private int mLines;
    private int mPooled;

    public void write() {
        mLines++;
        mPooled++;
    }

    public void writeLater() {
        Queues.DIRECT.execute(() -> mLines++);
        InPlace.INSTANCE.execute(() -> mLines++);
    }

    public void writePooled() {
        Queues.POOL.execute(() -> mPooled++);
    }
}
