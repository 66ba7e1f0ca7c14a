package kfixtures.workers

import androidx.work.CoroutineWorker
import androidx.work.ListenableWorker
import kotlinx.coroutines.delay

// Racy: WorkManager runs a coroutine worker's doWork on a background dispatcher and calls
// onStopped on another thread while the work may still run: the plain flag races, the volatile
// one does not, and the count of rounds is the work's own.
class SyncWorker : CoroutineWorker() {
    private var stopped = false
    @Volatile private var cancelled = false
    private var rounds = 0

    override suspend fun doWork(): ListenableWorker.Result {
        while (!stopped && !cancelled) { // expect: SyncWorker doWork this.stopped
            rounds++
            delay(10)
        }
        return ListenableWorker.Result.success()
    }

    override fun onStopped() {
        stopped = true
        cancelled = true
    }
}

// Safe: the flag is volatile and the progress is kept under the worker's lock.
class CleanupWorker : CoroutineWorker() {
    @Volatile private var stopped = false
    private var removed = 0

    override suspend fun doWork(): ListenableWorker.Result {
        while (!stopped) {
            synchronized(this) { removed++ }
            delay(10)
        }
        return ListenableWorker.Result.success()
    }

    override fun onStopped() {
        stopped = true
    }

    fun removed(): Int = synchronized(this) { removed }
}
