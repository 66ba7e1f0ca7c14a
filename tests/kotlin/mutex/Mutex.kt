package kfixtures.mutex

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock

class Counter {
    private val mutex = Mutex()
    private var count = 0

    // Safe: the write is inside withLock, whose lock() suspends before the block runs.
    suspend fun increment() {
        mutex.withLock {
            count++
        }
    }

    // Safe: the block suspends too; it resumes with the mutex still held.
    suspend fun incrementSlowly() {
        mutex.withLock {
            delay(10)
            count++
        }
    }

    // Safe: written only when tryLock() succeeded, before the unlock.
    fun tryIncrement() {
        if (mutex.tryLock()) {
            try {
                count++
            } finally {
                mutex.unlock()
            }
        }
    }

    // Racy: read without the mutex that guards the writes.
    fun peek(): Int = count // expect: Counter peek this.count
}

class Totals {
    private val mutex = Mutex()
    private var total = 0

    // Racy: the second write comes after the mutex is released (and after a suspension).
    suspend fun addThenReset() {
        mutex.withLock {
            delay(10)
            total += 1 // expect: Totals addThenReset this.total
        }
        delay(10)
        total = 0 // expect: Totals addThenReset this.total
    }
}

class Progress {
    private var steps = 0

    @Synchronized
    fun reset() {
        steps = 0
    }

    // Racy: after the suspension point the method goes on with the same `this`.
    suspend fun stepAfterWaiting() {
        delay(10)
        steps++ // expect: Progress stepAfterWaiting this.steps
    }
}

class Launcher {
    private val scope = CoroutineScope(Dispatchers.Default)
    private val mutex = Mutex()
    private var launched = 0

    // Safe: the block runs on a background dispatcher, holding the mutex across its suspension.
    fun launchCounted() {
        scope.launch {
            mutex.withLock {
                delay(10)
                launched++
            }
        }
    }

    // Racy: read without the mutex.
    fun launchedSoFar(): Int = launched // expect: Launcher launchedSoFar this.launched
}
