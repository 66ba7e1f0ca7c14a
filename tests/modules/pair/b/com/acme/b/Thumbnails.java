package com.acme.b;

import com.acme.a.RecentCache;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Lookups in the library's LRU cache: each moves the entry it finds, a write, so two unlocked
 * lookups race (mRecent); the locked ones do not (mLocked).
 */
@ThreadSafe
public class Thumbnails {
    private final RecentCache<String, byte[]> mRecent = new RecentCache<>(8);
    private final RecentCache<String, byte[]> mLocked = new RecentCache<>(8);

    public byte[] recent(String key) {
        return mRecent.get(key);
    }

    public synchronized byte[] locked(String key) {
        return mLocked.get(key);
    }
}
