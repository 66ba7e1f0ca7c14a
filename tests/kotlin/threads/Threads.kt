package kfixtures.threads

import kotlin.concurrent.thread

// Racy: the block given to thread { } runs on the new thread, alongside the caller's other
// work; its write races with the unlocked read.
class Counter {
    private var count = 0

    fun startCounting() {
        thread { count++ } // expect: Counter startCounting this.count
    }

    fun read(): Int = count // expect: Counter read this.count
}

// Safe: the block and the reader take the same lock.
class LockedCounter {
    private val lock = Any()
    private var count = 0

    fun startCounting() {
        thread { synchronized(lock) { count++ } }
    }

    fun read(): Int = synchronized(lock) { count }
}

// Racy: named arguments (thread$default); the block reads what the caller writes next.
class NamedWorker {
    private var progress = 0

    fun launch() {
        thread(name = "worker", isDaemon = true) { progress = 1 } // expect: NamedWorker launch this.progress
        progress = 2
    }
}

// Safe: the thread is joined before the caller goes on.
class JoinedWorker {
    private var total = 0

    fun compute(): Int {
        val worker = thread { total = 42 }
        worker.join()
        return total
    }
}

// Racy: a block that captures nothing (kotlinc keeps one instance of it) writes a global.
var hits = 0

class GlobalHits {
    fun hitLater() {
        thread { hits++ } // expect: GlobalHits hitLater threads.ThreadsKt.hits
    }

    fun current(): Int = hits // expect: GlobalHits current threads.ThreadsKt.hits
}

// Racy: a lambda given to a Java executor or thread, a SAM conversion kotlinc compiles to
// invokedynamic and a method of the class (submit$lambda$0).
class ExecutorUser(private val executor: java.util.concurrent.Executor) {
    private var done = 0

    fun submit() {
        executor.execute { done++ } // expect: ExecutorUser submit this.done
    }

    fun done(): Int = done // expect: ExecutorUser done this.done

    fun runInThread() {
        Thread { done = 0 }.start() // expect: ExecutorUser runInThread this.done
    }
}

// Safe: the same lambda, under the lock the reader takes.
class LockedExecutorUser(private val executor: java.util.concurrent.Executor) {
    private var done = 0

    fun submit() {
        executor.execute { synchronized(this) { done++ } }
    }

    @Synchronized
    fun done(): Int = done
}

// Racy: a thread kept in a property, made there with its block and started by another method:
// the block runs from that start on, reading the flag close() clears.
class PropertyPoller {
    private var stopped = false
    private val poller = Thread { while (!stopped) Thread.yield() }

    fun begin() = poller.start() // expect: PropertyPoller begin this.stopped

    fun close() {
        stopped = true
    }
}

// Safe: the flag is volatile.
class VolatilePropertyPoller {
    @Volatile private var stopped = false
    private val poller = Thread { while (!stopped) Thread.yield() }

    fun begin() = poller.start()

    fun close() {
        stopped = true
    }
}
