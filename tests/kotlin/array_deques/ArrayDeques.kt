package kfixtures.array_deques

import java.util.concurrent.Executors

/**
 * Racy: Kotlin's own `ArrayDeque` is not thread-safe; a pool's task adds to it while the caller's
 * thread takes from it, measures it and iterates it.
 */
class JobQueue {
    private val jobs = ArrayDeque<String>()
    private val pool = Executors.newFixedThreadPool(2)

    fun submit(job: String) {
        pool.execute { jobs.addLast(job) }
    }

    fun next(): String? = jobs.removeFirstOrNull()

    fun pending(): Int = jobs.size

    fun describe(): String {
        val names = StringBuilder()
        for (job in jobs) {
            names.append(job)
        }
        return names.toString()
    }
}

/** Safe: every use holds the object's lock; a task's own deque. */
class LockedJobQueue {
    private val jobs = ArrayDeque<String>()
    private val pool = Executors.newFixedThreadPool(2)

    fun submit(job: String) {
        pool.execute { synchronized(this) { jobs.addLast(job) } }
    }

    fun next(): String? = synchronized(this) { jobs.removeFirstOrNull() }

    fun drain(batch: List<String>) {
        pool.execute {
            val mine = ArrayDeque(batch)
            while (mine.isNotEmpty()) {
                println(mine.removeFirst())
            }
        }
    }
}
