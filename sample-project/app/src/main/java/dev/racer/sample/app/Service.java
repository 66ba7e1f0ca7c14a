package dev.racer.sample.app;

import dev.racer.sample.annotations.ThreadSafe;
import dev.racer.sample.lib.Counter;

/**
 * RACY (across modules): {@link Counter} in module lib is not thread-safe, and this class calls it
 * from any thread without a lock. The write happens in lib; racer reports it here, in app, with
 * the trace into {@code Counter.increment()}.
 */
@ThreadSafe
public class Service {
    private final Counter counter = new Counter();

    public void update() {
        counter.increment();
    }

    public int current() {
        return counter.get();
    }
}
