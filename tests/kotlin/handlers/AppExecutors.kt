package kfixtures.handlers

import android.app.Activity
import android.os.Handler
import android.os.Looper
import java.util.concurrent.Executor
import java.util.concurrent.Executors

/**
 * The executors an app keeps for the whole process, given to its primary constructor by its
 * secondary one: one thread for the disk, a pool for the network, and an executor of its own
 * posting to a handler property on the main looper.
 */
open class AppExecutors(
    private val diskIO: Executor,
    private val networkIO: Executor,
    private val mainThread: Executor
) {
    constructor() : this(
        Executors.newSingleThreadExecutor(),
        Executors.newFixedThreadPool(3),
        MainThreadExecutor()
    )

    fun diskIO(): Executor = diskIO
    fun networkIO(): Executor = networkIO
    fun mainThread(): Executor = mainThread

    private class MainThreadExecutor : Executor {
        private val mainThreadHandler = Handler(Looper.getMainLooper())

        override fun execute(command: Runnable) {
            mainThreadHandler.post(command)
        }
    }
}

/**
 * The disk thread's tasks run one at a time (saved races with the main thread's reads, not with
 * itself), the main thread's executor's on the main thread (shown: no race), the network pool's
 * on many threads (fetched races with itself and with onResume's read).
 */
class AppExecutorsActivity : Activity() {
    private val executors = AppExecutors()
    private var saved = 0
    private var shown = 0
    private var fetched = 0

    fun save() {
        executors.diskIO().execute {
            saved++
            executors.mainThread().execute { shown = saved } // expect: AppExecutorsActivity save this.saved
        }
    }

    fun fetch() {
        executors.networkIO().execute { fetched++ } // expect: AppExecutorsActivity fetch this.fetched
    }

    override fun onResume() {
        super.onResume()
        shown++
        val seen = saved + fetched // expect: AppExecutorsActivity onResume this.saved, this.fetched
    }
}
