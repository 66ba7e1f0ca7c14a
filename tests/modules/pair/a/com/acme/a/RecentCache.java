package com.acme.a;

import java.util.LinkedHashMap;
import java.util.Map;

/** An LRU cache: its constructor asks its LinkedHashMap for access order, so get() moves entries. */
public class RecentCache<K, V> extends LinkedHashMap<K, V> {
    private final int mMax;

    public RecentCache(int max) {
        super(16, 0.75f, true);
        mMax = max;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > mMax;
    }
}
