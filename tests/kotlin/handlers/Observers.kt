package kfixtures.handlers

import android.app.Activity
import android.database.ContentObserver
import android.net.Uri
import android.os.Bundle
import android.os.Handler
import android.os.Looper
import androidx.annotation.WorkerThread

/**
 * A content observer runs onChange on the looper of the handler it is made with, or on a binder
 * thread when made with none: the object made with null writes changes there, which races with
 * the other binder threads' onChange. The observer on the main looper's handler runs on the main
 * thread where it is registered: shown races with describe()'s worker-thread read, not with
 * onResume's.
 */
class ObserverActivity : Activity() {
    private var changes = 0
    private var shown = 0

    override fun onCreate(savedInstanceState: Bundle?) {
        val uri = Uri.parse("content://settings")
        contentResolver.registerContentObserver(uri, true, object : ContentObserver(null) {
            override fun onChange(selfChange: Boolean) {
                changes++ // expect: ObserverActivity$onCreate$1 onChange this.this$0.changes
            }
        })
        contentResolver.registerContentObserver(uri, true, object : ContentObserver(Handler(Looper.getMainLooper())) {
            override fun onChange(selfChange: Boolean) {
                shown++
            }
        })
    }

    @WorkerThread
    fun describe(): String = "$shown" // expect: ObserverActivity describe this.shown

    override fun onResume() {
        super.onResume()
        println("$changes $shown")
    }
}
