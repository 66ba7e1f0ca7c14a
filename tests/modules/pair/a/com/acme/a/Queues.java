package com.acme.a;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/** Executors the library keeps for its users: one running a task at a time, and a pool. */
public final class Queues {
    public static final Executor SERIAL = Executors.newSingleThreadExecutor();
    public static final Executor POOL = Executors.newCachedThreadPool();

    private Queues() {
    }
}
