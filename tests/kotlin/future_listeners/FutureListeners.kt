package kfixtures.future_listeners

import com.google.common.util.concurrent.FutureCallback
import com.google.common.util.concurrent.Futures
import com.google.common.util.concurrent.ListenableFuture
import com.google.common.util.concurrent.MoreExecutors
import java.util.concurrent.Executors

/** Racy: a listener lambda run on a pool, and a callback object run where the future completes. */
class Downloads {
    private val pool = Executors.newFixedThreadPool(2)
    private var finished = 0
    private var failed = 0

    fun watch(download: ListenableFuture<String>) {
        download.addListener({ finished++ }, pool)
    }

    fun report(download: ListenableFuture<String>) {
        Futures.addCallback(download, object : FutureCallback<String> {
            override fun onSuccess(result: String?) {}

            override fun onFailure(t: Throwable) {
                failed++
            }
        }, MoreExecutors.directExecutor())
    }

    fun summary(): String = "$finished $failed"
}

/** Safe: the listener and the read hold the object's lock. */
class LockedDownloads {
    private val pool = Executors.newFixedThreadPool(2)
    private var finished = 0

    fun watch(download: ListenableFuture<String>) {
        download.addListener({ synchronized(this) { finished++ } }, pool)
    }

    @Synchronized
    fun finished(): Int = finished
}
