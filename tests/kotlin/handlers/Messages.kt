package kfixtures.handlers

import android.app.Activity
import android.os.Bundle
import android.os.Handler
import android.os.HandlerThread
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

/**
 * Racy: messages sent to handlers made with a callback run the callback's handleMessage on the
 * handler's looper: a lambda on the main looper (its write of shown races with describe()'s
 * worker-thread read, not with onResume's), the activity itself on a worker thread's looper (its
 * write of saved races with onResume's read).
 */
class CallbackActivity : Activity(), Handler.Callback {
    private val thread = HandlerThread("callbacks")
    private val handler = Handler(Looper.getMainLooper()) { msg ->
        shown = msg.what
        true
    }
    private var worker: Handler? = null
    private var shown = 0
    private var saved: Any? = null

    override fun handleMessage(msg: Message): Boolean {
        saved = msg.obj
        return true
    }

    override fun onCreate(savedInstanceState: Bundle?) {
        thread.start()
        worker = Handler(thread.looper, this)
    }

    @WorkerThread
    fun onProgress() {
        handler.sendEmptyMessage(1)
        worker?.sendEmptyMessage(2) // expect: CallbackActivity onProgress this.worker
    }

    @WorkerThread
    fun describe(): String = "$shown" // expect: CallbackActivity describe this.shown

    override fun onResume() {
        super.onResume()
        println("$shown $saved") // expect: CallbackActivity onResume this.saved
    }
}

/**
 * Racy: a handler made with a callback kept in a property of its own class (a SAM constructor)
 * runs the callback on the handler's looper, a HandlerThread's: its write of stored races with
 * onResume's read. Safe: a callback property given two callbacks is not followed (chosen).
 */
class CallbackFieldActivity : Activity() {
    private val thread = HandlerThread("field-callbacks")
    private val store = Handler.Callback { msg ->
        stored = msg.obj
        true
    }
    private var either: Handler.Callback? = null
    private var storer: Handler? = null
    private var chooser: Handler? = null
    private var stored: Any? = null
    private var chosen = 0

    override fun onCreate(savedInstanceState: Bundle?) {
        thread.start()
        storer = Handler(thread.looper, store)
        either = Handler.Callback { chosen++; true }
        chooser = Handler(thread.looper, either)
    }

    fun reset() {
        either = Handler.Callback { chosen = 0; true }
    }

    override fun onStart() {
        super.onStart()
        storer?.sendEmptyMessage(0)
        chooser?.sendEmptyMessage(1)
    }

    override fun onResume() {
        super.onResume()
        println("$stored $chosen") // expect: CallbackFieldActivity onResume this.stored
    }
}

/**
 * Racy: a Handler subclass whose secondary constructor delegates to its primary one with the
 * main looper runs handleMessage on the main thread: its write of shown races with describe()'s
 * worker-thread read, not with onResume's.
 */
class DelegatingActivity : Activity() {
    private var shower: ShowHandler? = null
    private var shown = 0

    inner class ShowHandler(looper: Looper) : Handler(looper) {
        constructor() : this(Looper.getMainLooper())

        override fun handleMessage(msg: Message) {
            shown = msg.arg1
        }
    }

    override fun onCreate(savedInstanceState: Bundle?) {
        shower = ShowHandler()
    }

    override fun onStart() {
        super.onStart()
        shower?.sendEmptyMessage(0)
    }

    @WorkerThread
    fun describe(): String = "$shown" // expect: DelegatingActivity describe this.shown

    override fun onResume() {
        super.onResume()
        println("$shown")
    }
}
