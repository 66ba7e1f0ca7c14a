package kfixtures.objects

// Racy: the backing fields of an `object`'s properties are static fields of the object class;
// its functions are instance methods (a @Synchronized one locks INSTANCE).
object Registry {
    private var count = 0

    @Synchronized
    fun register() {
        count++
    }

    fun size(): Int = count // expect: Registry size objects.Registry.count
}

// Racy: a public property of an object: its instance accessors read and write the static field.
object Config {
    var level = 0 // expect: Config getLevel objects.Config.level, Config setLevel objects.Config.level

    @Synchronized
    fun update(l: Int) {
        level = l
    }
}

// Racy: another class writes the object's property through its setter without the lock.
class UsesConfig {
    @Synchronized
    fun raise() {
        Config.level = Config.level + 1 // racy in default mode, counted in Config's accessors' reports
    }

    fun lower() {
        Config.level = 0 // expect (compat only): UsesConfig lower objects.Config.level
    }
}

// Racy: companion object properties are static fields of the outer class; the companion reaches a
// private one through synthetic accessors (access$getNext$cp), which are inlined.
class Ids {
    companion object {
        private var next = 0

        @Synchronized
        fun fresh(): Int = next++

        fun peek(): Int = next // expect: Ids$Companion peek objects.Ids.next
    }
}

// Safe: every access to the object's state is locked.
object SafeRegistry {
    private val names = ArrayList<String>()

    @Synchronized
    fun add(n: String) {
        names.add(n)
    }

    @Synchronized
    fun count(): Int = names.size
}

// Safe: no concurrency evidence at all (no lock, no annotation): nothing is reported (8.5).
object Plain {
    var hits = 0

    fun hit() {
        hits++
    }
}

// Safe: a @Volatile companion property and a compile-time constant.
class Limits {
    companion object {
        const val MAX = 10

        @Volatile
        var current = 0

        @Synchronized
        fun bump(): Int {
            if (current < MAX) current++
            return current
        }
    }
}
