package kfixtures.handlers

import android.app.Activity
import android.os.Bundle
import android.os.Handler
import android.os.HandlerThread
import android.os.Looper
import androidx.annotation.WorkerThread

/**
 * Handlers made in the method with a callback, kept in a local or not: a message sent to one
 * runs the callback on the handler's looper. A lambda on a HandlerThread's looper writes saved,
 * which races with onResume's read; one on the main looper writes shown, which races with
 * describe()'s worker-thread read, not with onResume's. Handler.createAsync(looper, callback) makes
 * one too: its lambda on the HandlerThread's looper writes queued, which races with onResume's
 * read. Safe: handlers on a looper given as a parameter are not followed (polled is not reported).
 */
class LocalCallbackActivity : Activity() {
    private val thread = HandlerThread("local-callbacks")
    private var saved: Any? = null
    private var shown = 0
    private var polled = 0
    private var queued = 0

    override fun onCreate(savedInstanceState: Bundle?) {
        thread.start()
    }

    override fun onStart() {
        val saver = Handler(thread.looper) { msg ->
            saved = msg.obj
            true
        }
        saver.obtainMessage(0, "state").sendToTarget()
        Handler(Looper.getMainLooper()) { msg ->
            shown = msg.arg1
            true
        }.sendEmptyMessage(1)
        val queue = Handler.createAsync(thread.looper) { msg ->
            queued = msg.what
            true
        }
        queue.sendEmptyMessage(3)
    }

    fun poll(looper: Looper) {
        Handler(looper) { polled++; true }.sendEmptyMessage(2)
        Handler.createAsync(looper) { polled--; true }.sendEmptyMessage(4)
    }

    @WorkerThread
    fun describe(): String = "$shown $polled" // expect: LocalCallbackActivity describe this.shown

    override fun onResume() {
        super.onResume()
        println("$saved $shown $polled $queued") // expect: LocalCallbackActivity onResume this.saved, this.queued
    }
}
