package kfixtures.handlers

import android.app.Activity
import android.os.Bundle
import android.view.View
import androidx.annotation.WorkerThread
import androidx.lifecycle.MutableLiveData
import androidx.lifecycle.Observer

/**
 * Racy: a view's click listener and LiveData observers, Kotlin lambdas, run on the main thread
 * where they are registered: their writes race with describe()'s worker-thread read, not with
 * onResume's. The trailing lambda given for the generic Observer is compiled by kotlinc 1.9 to
 * a function object behind an adapter; the SAM constructor to a lambda of its own.
 */
class ListenerActivity : Activity() {
    private val status = MutableLiveData<String>()
    private val errors = MutableLiveData<String>()
    private var clicks = 0
    private var latest: String? = null
    private var failed: String? = null

    override fun onCreate(savedInstanceState: Bundle?) {
        val view = View()
        view.setOnClickListener { clicks++ }
        status.observeForever { latest = it }
        errors.observeForever(Observer { failed = it })
    }

    @WorkerThread
    fun describe(): String = "$clicks $latest $failed" // expect: ListenerActivity describe this.clicks, this.latest, this.failed

    override fun onResume() {
        super.onResume()
        println("$clicks $latest $failed")
    }
}
