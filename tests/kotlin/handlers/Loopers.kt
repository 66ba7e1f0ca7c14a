package kfixtures.handlers

import android.app.Activity
import android.os.Bundle
import android.os.Handler
import android.os.HandlerThread
import androidx.annotation.WorkerThread

/**
 * Loopers got through calls, in Kotlin's property syntax: the activity's mainLooper, a
 * HandlerThread subclass's looper and a main handler's looper. Handlers made on them run their
 * posts there: shown and relayed are written on the main thread and race with describe()'s
 * worker-thread read, not with onResume's; loaded is written on the loader thread and races with
 * onResume's read.
 */
class LooperCallsActivity : Activity() {
    private class LoaderThread : HandlerThread("loader")

    private val loader = LoaderThread()
    private val main = Handler(mainLooper)
    private var background: Handler? = null
    private var shown = 0
    private var loaded = 0
    private var relayed = 0

    override fun onCreate(savedInstanceState: Bundle?) {
        loader.start()
        background = Handler(loader.looper)
    }

    override fun onStart() {
        main.post { shown++ }
        background?.post { loaded++ }
        Handler(main.looper).post { relayed++ }
    }

    @WorkerThread
    fun describe(): String = "$shown $relayed" // expect: LooperCallsActivity describe this.shown, this.relayed

    override fun onResume() {
        super.onResume()
        println("$loaded $shown $relayed")
    }
}
