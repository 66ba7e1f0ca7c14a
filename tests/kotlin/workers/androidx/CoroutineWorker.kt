// A stand-in for WorkManager's coroutine worker (androidx.work is not on Maven Central): the real
// binary names and the callbacks racer models. The bodies are never run.
package androidx.work

abstract class ListenableWorker {
    // Called when the work is stopped (cancelled or preempted), while it may still run.
    open fun onStopped() {}

    abstract class Result {
        companion object {
            fun success(): Result = throw UnsupportedOperationException("stand-in")
        }
    }
}

// doWork is a suspend function, run on Dispatchers.Default unless the worker says otherwise.
abstract class CoroutineWorker : ListenableWorker() {
    abstract suspend fun doWork(): Result
}
