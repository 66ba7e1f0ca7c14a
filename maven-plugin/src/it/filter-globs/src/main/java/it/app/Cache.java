package it.app;

/** A race on a field the filter file excludes (cache*). */
public class Cache {
    private int cacheSize;

    public synchronized void update(int value) {
        cacheSize = value;
    }

    public int read() {
        return cacheSize;
    }
}
