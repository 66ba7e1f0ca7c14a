package kfixtures.blocking

import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.runBlocking

class Blocking {
    private val lock = Any()
    private var count = 0

    @Synchronized
    fun reset() {
        count = 0
    }

    // Racy: the block runs on the calling thread while runBlocking waits, without the lock the
    // reset takes.
    fun bumpBlocking() = runBlocking { // expect: Blocking bumpBlocking this.count
        count++
    }

    // Safe: the block takes the lock.
    fun bumpLocked() = runBlocking {
        synchronized(this@Blocking) { count++ }
    }

    // Racy: a suspend function's coroutineScope { } runs its block in the caller's coroutine.
    suspend fun bumpInScope() = coroutineScope { // expect: Blocking bumpInScope this.count
        count++
    }
}

class Unshared {
    private var total = 0

    // Safe: nothing shows the class to be shared.
    fun addBlocking() = runBlocking {
        total++
    }
}
