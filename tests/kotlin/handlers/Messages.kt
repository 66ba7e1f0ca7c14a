package kfixtures.handlers

import android.app.Activity
import android.os.Handler
import android.os.Looper
import android.os.Message
import androidx.annotation.WorkerThread

/**
 * Racy: messages sent to handlers on the main looper (an object expression in a property
 * initializer, an inner class that names the main looper itself) run their handleMessage on the
 * main thread: its writes race with describe()'s worker-thread reads, not with onResume's.
 */
class MessageActivity : Activity() {
    private val handler = object : Handler(Looper.getMainLooper()) {
        override fun handleMessage(msg: Message) {
            shown = msg.arg1
        }
    }
    private val ticker = TickHandler()
    private var shown = 0
    private var ticks = 0

    inner class TickHandler : Handler(Looper.getMainLooper()) {
        override fun handleMessage(msg: Message) {
            ticks++
        }
    }

    @WorkerThread
    fun onProgress() {
        handler.sendEmptyMessage(0)
        ticker.obtainMessage(0, null).sendToTarget()
    }

    @WorkerThread
    fun describe(): String = "$shown $ticks" // expect: MessageActivity describe this.shown, this.ticks

    override fun onResume() {
        super.onResume()
        println("$shown $ticks")
    }
}
