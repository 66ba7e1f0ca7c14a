package kfixtures.properties

// Racy: a public `var` gets generated accessors getCount/setCount (reported at the property's
// line); inside the class kotlinc accesses the backing field directly, under the lock.
class Counter {
    var count = 0 // expect: Counter getCount this.count, Counter setCount this.count

    @Synchronized
    fun increment() {
        count++
    }
}

// Racy: a private setter generates no method (the class writes the field directly); the public
// getter still races with the locked write.
class Total {
    var total = 0 // expect: Total getTotal this.total
        private set

    @Synchronized
    fun add(x: Int) {
        total += x
    }
}

// Racy: custom accessors with a backing field behave like the generated ones; the class itself
// calls them, so grow's locked accesses come from their summaries (5.5).
class Custom {
    var size: Int = 0
        get() = field // expect: Custom getSize this.size
        set(value) {
            field = value // expect: Custom setSize this.size
        }

    @Synchronized
    fun grow() {
        size = size + 1
    }
}

// Racy: a lateinit getter reads the field in its null check.
class Late {
    lateinit var label: String // expect: Late getLabel this.label, Late setLabel this.label

    @Synchronized
    fun relabel(s: String) {
        label = s
    }
}

// Racy: another class reads and writes the property through its accessors; the accesses are
// reported at the call lines of the unlocked caller.
class Client(private val counter: Counter) {
    @Synchronized
    fun reset() {
        counter.count = 0
    }

    fun peek(): Int = counter.count // expect: Client peek this.counter.count

    fun set(v: Int) {
        counter.count = v // expect: Client set this.counter.count
    }
}

// Safe: a @Volatile property is never reported, through accessors or directly.
class Flag {
    @Volatile
    var on = false

    @Synchronized
    fun toggle() {
        on = !on
    }

    fun clear() {
        on = false
    }
}

// Safe: a private property (no accessors) accessed only inside @Synchronized methods.
class Hits {
    private var hits = 0

    @Synchronized
    fun hit() {
        hits++
    }

    @Synchronized
    fun hits(): Int = hits
}

// Safe: a read-only `val` is written only by the constructor (owned `this`).
class Named(val name: String) {
    private var uses = 0

    @Synchronized
    fun use(): String {
        uses++
        return name
    }
}

// Safe: @Synchronized on both accessors: every access is locked.
class SyncAccessors {
    var n = 0
        @Synchronized get
        @Synchronized set

    fun twice() {
        synchronized(this) { n *= 2 }
    }
}
