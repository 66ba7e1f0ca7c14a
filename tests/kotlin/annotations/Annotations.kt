package kfixtures.annotations

import java.util.concurrent.ConcurrentHashMap
import javax.annotation.concurrent.NotThreadSafe
import javax.annotation.concurrent.ThreadSafe

interface Listener {
    fun onEvent()
}

@ThreadSafe
interface Service {
    fun run()
}

// Racy: every non-private method of a @ThreadSafe class starts at AnyThread, accessors and
// constructor included.
@ThreadSafe
class Account(private val listener: Listener) {
    private var balance = 0
    private val lock = Any()
    var owner: String = "" // expect: Account getOwner this.owner, Account setOwner this.owner
    private val log = ArrayList<String>()
    private val index = ConcurrentHashMap<String, Int>()

    fun deposit(x: Int) {
        synchronized(lock) {
            balance += x // expect: Account deposit this.balance
        }
    }

    fun peek(): Int = balance // expect: Account peek this.balance

    fun reset() {
        balance = 0 // expect: Account reset this.balance
    }

    fun record(s: String) {
        log.add(s) // expect: Account record this.log
    }

    fun remember(s: String, i: Int) {
        index[s] = i
    }

    fun fire() {
        listener.onEvent() // expect-interface: Account fire this.listener
    }
}

// Racy: Infer's @ThreadSafe has class retention (an invisible annotation in the class file).
@com.facebook.infer.annotation.ThreadSafe
class Invisible {
    var hits = 0 // expect: Invisible getHits this.hits, Invisible setHits this.hits
}

// Racy: methods implementing a @ThreadSafe interface are AnyThread.
class Worker : Service {
    private var runs = 0

    override fun run() {
        runs++ // expect: Worker run this.runs
    }
}

// Racy: the annotation of a superclass applies to the subclass's methods.
@ThreadSafe
open class Base

class Derived : Base() {
    var w = 0 // expect: Derived getW this.w, Derived setW this.w
}

// Safe: @NotThreadSafe on the class itself cancels the inherited @ThreadSafe.
@NotThreadSafe
class NotSafe : Base() {
    var v = 0
}

// Safe: all accesses are locked.
@ThreadSafe
class SafeCounter {
    private var n = 0

    @Synchronized
    fun inc() {
        n++
    }

    @Synchronized
    fun current(): Int = n
}

// Safe: enableChecks = false: the class is not analysed at all.
@com.facebook.infer.annotation.ThreadSafe(enableChecks = false)
class Unchecked {
    var x = 0

    fun bump() {
        x++
    }
}

// Safe: calls on a @ThreadSafe interface are not flagged.
@ThreadSafe
class Dispatcher(private val service: Service) {
    fun go() {
        service.run()
    }
}
