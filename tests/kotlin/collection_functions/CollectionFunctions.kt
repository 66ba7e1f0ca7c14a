package kfixtures.collection_functions

import java.util.concurrent.Executors

/** Racy: the standard library's functions read the list a pool's task adds to. */
class Recent {
    private val items = mutableListOf<String>()
    private val pool = Executors.newFixedThreadPool(2)

    fun add(item: String) {
        pool.execute { items.add(item) }
    }

    fun snapshot(): List<String> = items.toList()

    fun newest(): String? = items.lastOrNull()
}

/** Racy: functions that change what they are given, on a pool, and a plain read. */
class Scores {
    private val scores = mutableListOf<Int>()
    private val counts = IntArray(4)
    private val kept = mutableSetOf<Int>()
    private val pool = Executors.newFixedThreadPool(2)

    fun reorder() {
        pool.execute { scores.sortDescending() }
    }

    fun reset() {
        pool.execute { counts.fill(0) }
    }

    fun keep(from: List<Int>) {
        pool.execute { from.filterTo(kept) { it > 0 } }
    }

    fun best(): Int = scores[0] + counts[0] + kept.size
}

/** Safe: the reads and the writes hold the object's lock, or read a copy made under it. */
class LockedRecent {
    private val items = mutableListOf<String>()
    private val pool = Executors.newFixedThreadPool(2)

    fun add(item: String) {
        pool.execute { synchronized(this) { items.add(item) } }
    }

    fun snapshot(): List<String> = synchronized(this) { items.toList() }

    fun newest(): String? = snapshot().lastOrNull()
}

/** Safe: the task sorts a list it made itself. */
class LocalSort {
    private val pool = Executors.newFixedThreadPool(2)

    fun sorted(input: List<Int>) {
        pool.execute {
            val copy = input.toMutableList()
            copy.sort()
            println(copy.firstOrNull())
        }
    }
}

/** Racy: an inline function of another file adds to the list on a pool; reported at the call. */
class Tallies {
    private val items = mutableListOf<String>()
    private val pool = Executors.newFixedThreadPool(2)

    fun add(item: String) {
        pool.execute { addTwice(items, item) }
    }

    fun count(): Int = items.size
}
