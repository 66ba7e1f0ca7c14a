package com.acme.b;

import com.acme.a.Queues;

/**
 * Tasks given to the library's executors: those on its single-thread executor run one at a
 * time and do not race with each other (mEntries); those on its pool run at once (mPooled).
 */
public class Journal {
    private int mEntries;
    private int mPooled;

    public void append() {
        Queues.SERIAL.execute(() -> mEntries++);
    }

    public void spread() {
        Queues.POOL.execute(() -> mPooled++);
    }
}
