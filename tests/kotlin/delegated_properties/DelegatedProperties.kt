package kfixtures.delegated_properties

import java.util.concurrent.Executors

class Parser {
    fun parse(text: String): Int = text.length
}

/**
 * Racy: a lazy made with `LazyThreadSafetyMode.NONE` runs its initializer and keeps its value
 * without a lock; a pool's task and the caller's thread both ask for it.
 */
class UnsafeParsing {
    private val parser by lazy(LazyThreadSafetyMode.NONE) { Parser() }
    private val pool = Executors.newFixedThreadPool(2)

    fun parseLater(text: String) {
        pool.execute { parser.parse(text) }
    }

    fun parseNow(text: String): Int = parser.parse(text)
}

/**
 * Safe: the default lazy locks around its initializer, a `PUBLICATION` one publishes its value
 * atomically, and an unsafe lazy asked for under the object's lock is asked for one thread at a
 * time.
 */
class SafeParsing {
    private val parser by lazy { Parser() }
    private val published by lazy(LazyThreadSafetyMode.PUBLICATION) { Parser() }
    private val guarded by lazy(LazyThreadSafetyMode.NONE) { Parser() }
    private val pool = Executors.newFixedThreadPool(2)

    fun parseLater(text: String) {
        pool.execute {
            parser.parse(text)
            published.parse(text)
            synchronized(this) { guarded.parse(text) }
        }
    }

    fun parseNow(text: String): Int {
        val locked = synchronized(this) { guarded.parse(text) }
        return parser.parse(text) + published.parse(text) + locked
    }
}

/** Racy: an object's unsafe lazy, kept in a static field, asked for on a pool and by callers. */
object SharedParser {
    private val parser by lazy(LazyThreadSafetyMode.NONE) { Parser() }
    private val pool = Executors.newFixedThreadPool(2)

    fun parseLater(text: String) {
        pool.execute { parser.parse(text) }
    }

    fun parseNow(text: String): Int = parser.parse(text)
}

/** Safe: a mode given as a parameter is not known to be `NONE`. */
class ChosenMode(mode: LazyThreadSafetyMode) {
    private val parser by lazy(mode) { Parser() }
    private val pool = Executors.newFixedThreadPool(2)

    fun parseLater(text: String) {
        pool.execute { parser.parse(text) }
    }

    fun parseNow(text: String): Int = parser.parse(text)
}

/**
 * Racy: `notNull`, `observable` and `vetoable` keep the value in a plain field of the delegate; a
 * pool's task sets the properties while the caller's thread gets them.
 */
class Progress {
    private var done: Int by kotlin.properties.Delegates.notNull()
    private var label: String by kotlin.properties.Delegates.observable("") { _, _, _ -> }
    private var best: Int by kotlin.properties.Delegates.vetoable(0) { _, old, new -> new > old }
    private val pool = Executors.newFixedThreadPool(2)

    fun update(value: Int) {
        pool.execute {
            done = value
            label = "at $value"
            best = value
        }
    }

    fun describe(): String = "$label: $done, best $best"
}

/** Safe: the properties are set and got under the object's lock. */
class LockedProgress {
    private var done: Int by kotlin.properties.Delegates.notNull()
    private var label: String by kotlin.properties.Delegates.observable("") { _, _, _ -> }
    private val pool = Executors.newFixedThreadPool(2)

    fun update(value: Int) {
        pool.execute {
            synchronized(this) {
                done = value
                label = "at $value"
            }
        }
    }

    fun describe(): String = synchronized(this) { "$label: $done" }
}

/**
 * Racy: the code given to `observable` and `vetoable` runs where the property is set, on the pool's
 * thread: its count of changes races with the caller's read of it.
 */
class CountedChanges {
    private var changes = 0
    private var title: String by kotlin.properties.Delegates.observable("") { _, _, _ -> changes++ }
    private var limit: Int by kotlin.properties.Delegates.vetoable(0) { _, _, new -> changes += 1; new >= 0 }
    private val pool = Executors.newFixedThreadPool(2)

    fun retitle(value: String) {
        pool.execute { title = value }
    }

    fun relimit(value: Int) {
        pool.execute { synchronized(this) { limit = value } }
    }

    fun changes(): Int = changes
}

/** Safe: the observer counts under the lock it is set under, and the count is read under it. */
class LockedChanges {
    private var changes = 0
    private var title: String by kotlin.properties.Delegates.observable("") { _, _, _ -> changes++ }
    private val pool = Executors.newFixedThreadPool(2)

    fun retitle(value: String) {
        pool.execute { synchronized(this) { title = value } }
    }

    fun changes(): Int = synchronized(this) { changes }
}
