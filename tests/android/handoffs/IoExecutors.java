package fixtures.android.handoffs;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * An executor holder its package makes in two ways: on one thread, and on a pool. Its field
 * may hold either, so its tasks are taken to run on a pool.
 */
public class IoExecutors {
    private final Executor io;

    IoExecutors(Executor io) {
        this.io = io;
    }

    static IoExecutors serial() {
        return new IoExecutors(Executors.newSingleThreadExecutor());
    }

    static IoExecutors pooled() {
        return new IoExecutors(Executors.newCachedThreadPool());
    }

    public Executor io() {
        return io;
    }
}
