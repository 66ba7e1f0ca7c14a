package kfixtures.compiler_helpers

import javax.annotation.concurrent.ThreadSafe

// A call that leaves out default arguments goes through the static helper kotlinc writes
// (`bump$default`), which fills them in and calls the function.
@ThreadSafe
class Counter {
    private var count = 0
    private var label = ""

    private fun bump(by: Int = 1) {
        count += by
    }

    private fun rename(name: String = "none", suffix: String = "") {
        label = name + suffix
    }

    fun increment() {
        bump() // expect (default mode): Counter increment this.count
    }

    fun incrementBy(n: Int) {
        bump(n) // expect: Counter incrementBy this.count
    }

    fun reset() {
        rename() // expect (default mode): Counter reset this.label
    }
}

// The same helpers called under the object's lock: nothing in either mode.
@ThreadSafe
class LockedCounter {
    private var count = 0

    private fun bump(by: Int = 1) {
        count += by
    }

    @Synchronized
    fun increment() {
        bump()
    }

    @Synchronized
    fun read(): Int = count
}

// The body of an open suspend function is the static helper `work$suspendImpl`, which `work`
// calls; `work` itself has no line numbers, so its report shows the line of the body.
@ThreadSafe
open class SuspendingWorker {
    private var count = 0

    open suspend fun work() {
        count++ // expect (default mode): SuspendingWorker work this.count
    }

    suspend fun runWork() {
        work() // expect (default mode): SuspendingWorker runWork this.count
    }
}

// The same, under a lock the helper takes: nothing.
@ThreadSafe
open class LockedSuspendingWorker {
    private var count = 0
    private val lock = Any()

    open suspend fun work() {
        synchronized(lock) {
            count++
        }
    }

    suspend fun runWork() {
        work()
    }
}

// A private constructor called from another class goes through the accessor kotlinc writes: a
// constructor taking a `DefaultConstructorMarker` more, which passes on every argument but the
// marker. Its parameter is the caller's `tally`, its receiver the new entry.
class Tally {
    var count = 0
}

class Entry private constructor(tally: Tally) {
    private var uses = 0

    init {
        tally.count++
        uses++
    }

    // Racy: the shared tally's count is written outside any lock; the new entry's own field is not
    // shared.
    @ThreadSafe
    class Maker(private val tally: Tally) {
        fun make(): Entry = Entry(tally) // expect: Entry$Maker make this.tally.count
    }

    // Safe: the same under a lock.
    @ThreadSafe
    class LockedMaker(private val tally: Tally) {
        fun make(): Entry = synchronized(this) { Entry(tally) }
    }
}
