package fixtures.libraries.netty;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.concurrent.ExecutorService;

/**
 * Safe: every access runs on the counter's event loop, directly when already there
 * (inEventLoop()), else as a task given to the loop, which runs it on its own thread.
 */
class LoopCounter {
    private final EventExecutor loop;
    private int count;

    LoopCounter(EventExecutor loop) {
        this.loop = loop;
    }

    void increment() {
        if (loop.inEventLoop()) {
            count++;
        } else {
            loop.execute(() -> count++);
        }
    }

    int countInLoop() {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("not on the event loop");
        }
        return count;
    }
}

/**
 * Racy: a group runs a task on any of its loops, not on the caller's; the in-loop increment and
 * the group's task race, and so do the group's tasks with each other.
 */
class GroupCounter {
    private final EventExecutor loop;
    private final EventExecutorGroup group;
    private int count;

    GroupCounter(EventExecutor loop, EventExecutorGroup group) {
        this.loop = loop;
        this.group = group;
    }

    void increment() {
        if (loop.inEventLoop()) {
            count++; // expect: GroupCounter increment this.count
        } else {
            group.execute(() -> count++); // expect: GroupCounter increment this.count
        }
    }
}

/** Racy: a pool's task reads what the event loop's tasks write. */
class ReportedCounter {
    private final EventExecutor loop;
    private final ExecutorService pool;
    private int count;

    ReportedCounter(EventExecutor loop, ExecutorService pool) {
        this.loop = loop;
        this.pool = pool;
    }

    void increment() {
        loop.execute(() -> count++);
    }

    void report() {
        pool.execute(() -> System.out.println(count)); // expect: ReportedCounter report this.count
    }
}

/**
 * Safe: a pool's task increments through the loop check; off the loop, the check hands the
 * increment to the loop.
 */
class ForwardedCounter {
    private final EventExecutor loop;
    private final ExecutorService pool;
    private int count;

    ForwardedCounter(EventExecutor loop, ExecutorService pool) {
        this.loop = loop;
        this.pool = pool;
    }

    void increment() {
        if (loop.inEventLoop()) {
            count++;
        } else {
            loop.execute(() -> count++);
        }
    }

    void incrementLater() {
        pool.execute(this::increment);
    }
}

/**
 * Safe: as ForwardedCounter, on a channel's event loop (`io.netty.channel.EventLoop`, which
 * code analysed without Netty on the classpath knows by name).
 */
class ChannelCounter {
    private final io.netty.channel.EventLoop loop;
    private final ExecutorService pool;
    private int count;

    ChannelCounter(io.netty.channel.EventLoop loop, ExecutorService pool) {
        this.loop = loop;
        this.pool = pool;
    }

    void increment() {
        if (loop.inEventLoop()) {
            count++;
        } else {
            loop.execute(() -> count++);
        }
    }

    void incrementLater() {
        pool.execute(this::increment);
    }
}
