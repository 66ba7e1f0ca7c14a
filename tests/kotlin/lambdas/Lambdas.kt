package kfixtures.lambdas

// An inline function: kotlinc copies its body, and the lambda passed to it, into every caller.
inline fun <T> withLock(lock: Any, block: () -> T): T = synchronized(lock) { block() }

// Racy and safe: accesses inside lambdas passed to inline functions are the caller's own.
class Inlined {
    private val lock = Any()
    private var count = 0

    fun add() {
        withLock(lock) { count++ }
    }

    fun peek(): Int = count // expect: Inlined peek this.count

    fun clear() {
        repeat(2) {
            count = 0 // expect: Inlined clear this.count
        }
    }

    fun lockedPeek(): Int = withLock(lock) { count }
}

// Lambda bodies compiled to synthetic methods (SAM conversions through invokedynamic) are not
// analysed; Kotlin function-type lambdas are compiled to classes (Deferred$action$1) whose
// invoke() is analysed like any nested class's method, reported only with its own evidence.
class Deferred {
    private val lock = Any()
    private var state = 0
    private var task: Runnable? = null

    @Synchronized
    fun set(v: Int) {
        state = v
    }

    fun read(): Int = state // expect: Deferred read this.state

    fun later(): Runnable = Runnable { state = 0 }

    fun action(): () -> Unit = { state = 1 }

    fun locking(): () -> Unit = { // expect: Deferred$locking$1 invoke this.this$0.state
        withLock(lock) { state++ }
        state = 2 // expect: Deferred$locking$1 invoke this.this$0.state
    }

    fun install() {
        task = Runnable { state++ } // expect: Deferred install this.task
    }

    @Synchronized
    fun cancel() {
        task = null
    }
}
