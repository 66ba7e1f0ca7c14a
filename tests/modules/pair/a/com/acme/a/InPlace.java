package com.acme.a;

import java.util.concurrent.Executor;

/** An executor running each task at once, in the calling thread. */
public final class InPlace implements Executor {
    public static final InPlace INSTANCE = new InPlace();

    @Override
    public void execute(Runnable task) {
        task.run();
    }
}
