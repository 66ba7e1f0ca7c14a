package kfixtures.text_builders

import java.util.concurrent.Executors

/** Racy: a pool's task empties the builder that a plain read turns into text. */
class LogBuffer {
    private val buffer = StringBuilder()
    private val pool = Executors.newFixedThreadPool(2)

    fun reset() {
        pool.execute { buffer.clear() }
    }

    fun text(): String = buffer.toString()
}

/** Racy: the functions kotlinc calls rather than inlines add to the builder on a pool. */
class Transcript {
    private val lines = StringBuilder()
    private val pool = Executors.newFixedThreadPool(2)

    @Suppress("DEPRECATION", "DEPRECATION_ERROR")
    fun endLine() {
        pool.execute { lines.appendln() }
    }

    fun addWords(first: String, second: String) {
        pool.execute { lines.append(first, second) }
    }

    fun size(): Int = lines.length
}

/** Safe: every change and read holds the object's lock. */
class LockedBuffer {
    private val buffer = StringBuilder()
    private val pool = Executors.newFixedThreadPool(2)

    fun reset() {
        pool.execute { synchronized(this) { buffer.clear() } }
    }

    fun text(): String = synchronized(this) { buffer.toString() }
}

/** Safe: the task empties a builder it made itself. */
class LocalBuffer {
    private val pool = Executors.newFixedThreadPool(2)

    fun render(words: List<String>) {
        pool.execute {
            val buffer = StringBuilder()
            words.forEach { buffer.append(it) }
            buffer.clear()
            println(buffer.length)
        }
    }
}
