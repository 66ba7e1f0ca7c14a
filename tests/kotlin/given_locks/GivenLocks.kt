package kfixtures.given_locks

import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

// A handle shared by the sinks it opens: its lock guards its count of open sinks.
class Handle {
    val lock = ReentrantLock()
    var openSinks = 0

    fun open(): Sink {
        lock.withLock { openSinks++ }
        return Sink(this)
    }

    fun openCount(): Int = lock.withLock { openSinks }
}

// Safe for its own flag: a sink locks the handle its constructor was given, not itself; one
// thread writes through it.
class Sink(private val handle: Handle) {
    private var closed = false

    fun write(): Boolean = !closed

    fun close() {
        if (closed) return
        closed = true
        handle.lock.withLock { handle.openSinks-- }
    }
}

// Racy: the given lock guards the sink's own count.
class CountingSink(private val handle: Handle) {
    private var written = 0

    fun write() {
        handle.lock.withLock { written++ }
    }

    fun written(): Int = written
}
