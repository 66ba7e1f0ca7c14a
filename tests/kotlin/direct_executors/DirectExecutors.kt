package kfixtures.direct_executors

import java.util.concurrent.Executor
import java.util.concurrent.Executors

/** Safe: executors that run each task in the calling thread, and a thread run, not started. */
class DirectOwner {
    private var count = 0
    private val executor = Executor { it.run() }
    private val reference: Executor = Executor(Runnable::run)

    fun bump() {
        count++
    }

    fun later() {
        executor.execute { count++ }
    }

    fun viaReference() {
        reference.execute { count++ }
    }

    fun runHere() {
        Thread { count++ }.run()
    }
}

/** Racy: a pool runs the task on another thread. */
class PoolOwner {
    private var count = 0
    private val executor: Executor = Executors.newCachedThreadPool()

    fun bump() {
        count++ // expect (default mode): PoolOwner bump this.count
    }

    fun later() {
        executor.execute { count++ } // expect (default mode): PoolOwner later this.count
    }
}

/** An executor object whose `execute` runs its task, after Kotlin's check of its parameter. */
object InPlace : Executor {
    override fun execute(command: Runnable) {
        command.run()
    }
}

/** Safe: tasks given to the object run in the calling thread. */
class ObjectExecutorOwner {
    private var count = 0

    fun bump() {
        count++
    }

    fun later() {
        InPlace.execute { count++ }
    }
}
