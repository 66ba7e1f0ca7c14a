package kfixtures.indy_lambdas

import javax.annotation.concurrent.ThreadSafe
import kotlin.concurrent.thread

// Compiled with -Xlambdas=indy (Kotlin 2's default): every lambda is an invokedynamic whose body
// is a method of the class (start$lambda$0), as javac's lambdas are.

// Racy: the block given to thread { } runs on the new thread.
class IndyCounter {
    private var count = 0

    fun start() {
        thread { count++ } // expect: IndyCounter start this.count
    }

    fun read(): Int = count // expect: IndyCounter read this.count
}

// Racy: a block capturing nothing writes a global.
var indyHits = 0

class IndyGlobalHits {
    fun hitLater() {
        thread { indyHits++ } // expect: IndyGlobalHits hitLater indy_lambdas.IndyLambdasKt.indyHits
    }
}

// Safe: the thread is joined before the caller reads.
class IndyJoined {
    private var total = 0

    fun compute(): Int {
        val worker = thread { total = 42 }
        worker.join()
        return total
    }
}

// Safe: a helper of the class runs the block it is given under its lock, and every access
// goes through it.
@ThreadSafe
class LockingHelper {
    private val lock = Any()
    private var n = 0

    private fun <T> locked(block: () -> T): T = synchronized(lock) { block() }

    fun inc() {
        locked { n++ }
    }

    fun get(): Int = locked { n }
}

// Racy: the same helper, and one unlocked read.
@ThreadSafe
class LockingHelperLeaky {
    private val lock = Any()
    private var n = 0

    private fun <T> locked(block: () -> T): T = synchronized(lock) { block() }

    fun inc() {
        locked { n++ }
    }

    fun peek(): Int = n // expect: LockingHelperLeaky peek this.n
}

// Racy: a lambda kept in a property, given to an executor later.
class HeldIndyTicker(private val executor: java.util.concurrent.Executor) {
    private var ticks = 0
    private val tick = Runnable { ticks++ }

    fun start() {
        executor.execute(tick) // expect: HeldIndyTicker start this.ticks
    }

    fun ticks(): Int = ticks // expect: HeldIndyTicker ticks this.ticks
}
