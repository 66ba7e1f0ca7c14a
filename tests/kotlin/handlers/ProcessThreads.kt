package kfixtures.handlers

import android.app.Activity
import android.os.Handler
import android.os.HandlerThread
import android.os.Looper

/** A process-wide background thread and its handler, made once. */
object ProcessThread {
    private val thread = HandlerThread("process-thread").apply { start() }
    val handler = Handler(thread.looper)
}

/** The main thread's handler, made once. */
object MainThread {
    val handler = Handler(Looper.getMainLooper())
}

/**
 * Handlers kept in properties from another object's: the process thread's handler (saved) and
 * one made on its looper (synced) run their posts on that thread, where they race with
 * onResume's reads; the main thread's (shown) runs them on the main thread.
 */
class ProcessThreadActivity : Activity() {
    private val worker = ProcessThread.handler
    private val sync = Handler(ProcessThread.handler.looper)
    private val ui = MainThread.handler
    private var saved = 0
    private var synced = 0
    private var shown = 0

    fun save() {
        worker.post { saved++ }
    }

    fun sync() {
        sync.post { synced++ }
    }

    fun show() {
        ui.post { shown++ }
    }

    override fun onResume() {
        super.onResume()
        println("$saved $synced $shown") // expect: ProcessThreadActivity onResume this.saved, this.synced
    }
}
