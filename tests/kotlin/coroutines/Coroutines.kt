package kfixtures.coroutines

class Generator {
    private val lock = Any()
    private var produced = 0

    // Safe: the suspend lambda passed to sequence() (SequenceScope is @RestrictsSuspension) is a
    // class whose direct superclass is RestrictedSuspendLambda: never reported, although its
    // invokeSuspend holds a monitor and writes this.this$0.produced without it.
    fun numbers(): Sequence<Int> = sequence {
        synchronized(lock) { produced++ }
        yield(produced)
        produced = 0
    }
}

class Jobs {
    private val lock = Any()
    private var runs = 0

    // Racy: an unrestricted suspend lambda: its class extends SuspendLambda and is reported like
    // any other nested class (the monitor makes invokeSuspend AnyThread).
    fun job(): suspend () -> Unit = {
        synchronized(lock) { runs++ }
        runs = 0 // expect: Jobs$job$1 invokeSuspend this.this$0.runs
    }
}
