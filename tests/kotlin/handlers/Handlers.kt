package kfixtures.handlers

import android.app.Activity
import android.os.Bundle
import android.os.Handler
import android.os.Looper
import androidx.annotation.WorkerThread

/**
 * Racy: handlers made in a property initializer (the framework makes activities on the main
 * thread) and in onCreate on Looper.myLooper() run their posts on the main thread: their writes
 * race with describe()'s worker-thread reads, not with onResume's. The worker's read of the
 * handler onCreate stores races with that store.
 */
class TickerActivity : Activity() {
    private val handler = Handler()
    private var looperHandler: Handler? = null
    private var ticks = 0
    private var pings = 0

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        looperHandler = Handler(Looper.myLooper()!!)
    }

    @WorkerThread
    fun onTick() {
        handler.post { ticks++ }
        looperHandler?.post { pings++ } // expect: TickerActivity onTick this.looperHandler
    }

    @WorkerThread
    fun describe(): String = "$ticks $pings" // expect: TickerActivity describe this.ticks, this.pings

    override fun onResume() {
        super.onResume()
        println("$ticks $pings")
    }
}

/** Safe: a handler made in a plain class, on a thread racer does not know, is not followed. */
class Poller {
    private var polls = 0

    fun poll() {
        Handler().post { polls++ }
    }

    @WorkerThread
    fun describe(): String = "$polls"
}
