package kfixtures.receivers

import android.app.Activity
import android.content.BroadcastReceiver
import android.content.Context
import android.content.Intent
import android.content.IntentFilter
import android.os.Bundle
import android.os.Handler
import android.os.HandlerThread
import android.os.Looper

// A receiver registered with a scheduler handler on a HandlerThread's looper receives there, one
// intent at a time; registered without one, or with a main-looper handler, on the main thread.
// The handlers are `lateinit` properties: kotlinc checks each read, throwing if it was never set.
class ReceiverActivity : Activity() {
    private lateinit var worker: Handler
    private lateinit var main: Handler
    private var received = 0
    private var level = 0
    private var screenChanges = 0

    private val countingReceiver = object : BroadcastReceiver() {
        override fun onReceive(context: Context, intent: Intent) {
            received++
        }
    }

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        val thread = HandlerThread("broadcasts")
        thread.start()
        worker = Handler(thread.looper)
        main = Handler(Looper.getMainLooper())
    }

    override fun onStart() {
        super.onStart()
        registerReceiver(countingReceiver, IntentFilter("kfixtures.COUNT"), null, worker)
        registerReceiver(object : BroadcastReceiver() {
            override fun onReceive(context: Context, intent: Intent) {
                level++
            }
        }, IntentFilter("kfixtures.LEVEL"))
        registerReceiver(object : BroadcastReceiver() {
            override fun onReceive(context: Context, intent: Intent) {
                screenChanges++
            }
        }, IntentFilter("kfixtures.SCREEN"), null, main)
    }

    override fun onResume() {
        super.onResume()
        println("$received $level $screenChanges") // expect: ReceiverActivity onResume this.received
    }
}
