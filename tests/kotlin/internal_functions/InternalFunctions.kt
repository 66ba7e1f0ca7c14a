package kfixtures.internal_functions

import javax.annotation.concurrent.ThreadSafe

// An `internal` function compiles to a public method whose name carries the module's
// (`grow$main`: kotlinc names the fixtures' module `main`), callable from any code of the
// module, as a public one is from any code.
@ThreadSafe
class Registry {
    private var size = 0
    private var label = ""

    internal fun grow() {
        size++ // expect (default mode): Registry grow$main this.size
    }

    fun add() {
        grow() // expect (default mode): Registry add this.size
    }

    internal var name: String
        get() = label // nothing: no code of the module calls this accessor
        set(value) {
            label = value // nothing: no code of the module calls this accessor
        }
}

// The same under the object's lock: nothing in either mode.
@ThreadSafe
class LockedRegistry {
    private var size = 0

    @Synchronized
    internal fun grow() {
        size++
    }

    fun add() {
        grow()
    }

    @Synchronized
    fun size(): Int = size
}

// An internal function named for the lock its callers hold (`growLocked`, compiled to
// `growLocked$main`): the name's rule reads the source name, so nothing in either mode.
@ThreadSafe
class LockedByCallers {
    private val lock = Any()
    private var size = 0

    internal fun growLocked() {
        size++
    }

    fun add() {
        synchronized(lock) {
            growLocked()
        }
    }

    fun size(): Int = synchronized(lock) { size }
}

// Internal state that the module's code, in another class, touches only under the owner's lock:
// its accessors are reported through those callers, as a package-private helper is: nothing.
@ThreadSafe
class Channel {
    internal val lock = Any()
    internal var closed = false
}

@ThreadSafe
class ChannelSink(private val channel: Channel) {
    fun close() {
        synchronized(channel.lock) { channel.closed = true }
    }

    fun write(): Boolean = synchronized(channel.lock) { !channel.closed }
}

// The same with one caller that does not take the lock: the getter runs without it there.
@ThreadSafe
class LeakyChannel {
    internal val lock = Any()
    internal var closed = false
}

@ThreadSafe
class LeakySink(private val channel: LeakyChannel) {
    fun close() {
        synchronized(channel.lock) { channel.closed = true }
    }

    fun peek(): Boolean = !channel.closed
}

// Racy: an internal function the class's own package calls under the lock, and another package
// of the module without it.
@ThreadSafe
class Gate {
    internal val lock = Any()
    private var count = 0

    internal fun bump() {
        count++ // expect (default mode): Gate bump$main this.count
    }
}

@ThreadSafe
class GateKeeper(private val gate: Gate) {
    fun pass() {
        synchronized(gate.lock) { gate.bump() }
    }
}

// A published internal function: public in the class file under its source name, for the
// module's public inline functions, which call it under the heap's lock. Other modules call it
// only through their inlined copies of those: a held helper, reported through its callers
// (nothing).
@ThreadSafe
class Heap {
    private var top = 0

    @PublishedApi
    internal fun pushImpl() {
        top++
    }

    inline fun push() = synchronized(this) { pushImpl() }

    fun size(): Int = synchronized(this) { top }
}

// Racy: one of the inline functions calls it without the lock. Its write races with every
// access to the field.
@ThreadSafe
class LeakyHeap {
    private var top = 0

    @PublishedApi
    internal fun pushImpl() {
        top++ // expect: LeakyHeap pushImpl, push, pushBare and size, this.top
    }

    inline fun push() = synchronized(this) { pushImpl() }

    inline fun pushBare() = pushImpl()

    fun size(): Int = synchronized(this) { top }
}

// Safe: the public functions of an internal class are its module's; the one that bumps the
// count is only called under the lock.
internal class HitCounter {
    private var hits = 0

    @Synchronized
    fun hit() = bump()

    @Synchronized
    fun hits(): Int = hits

    fun bump() {
        hits++ // expect (compat only): HitCounter bump, this.hits
    }
}

interface Bumper {
    fun bump()
}

// Racy: its `bump` implements a public interface's, which any module may call through the
// interface, without the lock.
internal class LeakyHitCounter : Bumper {
    private var hits = 0

    @Synchronized
    fun hit() = bump()

    @Synchronized
    fun hits(): Int = hits

    override fun bump() {
        hits++ // expect: LeakyHitCounter bump, this.hits
    }
}

// Safe: a protected function of an internal class, which only its subclasses, all of this module,
// may call; its one call holds the lock.
internal abstract class SlotOwner {
    private var slots = 0

    @Synchronized
    fun allocate() = grow()

    @Synchronized
    fun count(): Int = slots

    protected fun grow() {
        slots++ // expect (compat only): SlotOwner grow, this.slots
    }
}

internal class Slots : SlotOwner()

// Racy: the same in a public class, whose subclasses in other modules may call `grow` bare.
abstract class OpenSlotOwner {
    private var slots = 0

    @Synchronized
    fun allocate() = grow()

    @Synchronized
    fun count(): Int = slots

    protected fun grow() {
        slots++ // expect: OpenSlotOwner grow, this.slots
    }
}

// Racy: an internal property's setter, called by another class of the module without the lock.
@ThreadSafe
class CalledAccessors {
    internal var label: String = "" // expect: CalledAccessors setLabel$main this.label

    @Synchronized
    fun reset() {
        label = ""
    }
}

class AccessorCaller {
    fun rename(target: CalledAccessors) {
        target.label = "renamed"
    }
}

// Safe: the same property, whose accessors no code of the module calls (its class reads and
// writes the field itself): they never run.
@ThreadSafe
class DeadAccessors {
    internal var label: String = ""

    @Synchronized
    fun reset() {
        label = ""
    }
}

// Racy: `run` of an internal class implements `Runnable`'s, which an executor may call without
// the lock, though the one call this module makes holds it.
internal class Ticker : Runnable {
    private var ticks = 0

    @Synchronized
    fun tick() = run()

    @Synchronized
    fun ticks(): Int = ticks

    override fun run() {
        ticks++ // expect: Ticker run this.ticks
    }
}
