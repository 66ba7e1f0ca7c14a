package kfixtures.handlers

import android.app.Activity
import android.os.Bundle
import android.view.View
import androidx.annotation.WorkerThread
import androidx.lifecycle.MutableLiveData
import androidx.lifecycle.Observer

/**
 * Racy: a view's click listener and a LiveData's observer, Kotlin lambdas, run on the main
 * thread where they are registered: their writes race with describe()'s worker-thread read,
 * not with onResume's. (The observer is made with its SAM constructor: kotlinc 1.9 compiles a
 * trailing lambda given for a generic Java interface to a function object behind an adapter,
 * which is not followed.)
 */
class ListenerActivity : Activity() {
    private val status = MutableLiveData<String>()
    private var clicks = 0
    private var latest: String? = null

    override fun onCreate(savedInstanceState: Bundle?) {
        val view = View()
        view.setOnClickListener { clicks++ }
        status.observeForever(Observer { latest = it })
    }

    @WorkerThread
    fun describe(): String = "$clicks $latest" // expect: ListenerActivity describe this.clicks, this.latest

    override fun onResume() {
        super.onResume()
        println("$clicks $latest")
    }
}
