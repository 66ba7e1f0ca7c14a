package com.acme.a;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Executors the library keeps for its users: one running a task at a time, a pool, and one
 * running each task at once in the calling thread.
 */
public final class Queues {
    public static final Executor SERIAL = Executors.newSingleThreadExecutor();
    public static final Executor POOL = Executors.newCachedThreadPool();
    public static final Executor DIRECT = new InPlace();

    private Queues() {
    }
}
