package kfixtures.weak_references

import java.lang.ref.WeakReference

/** Racy: a task keeping its owner weakly, given to a new thread, writes the owner's count. */
class TaskOwner {
    @JvmField var count = 0
    private val task = WeakTask(this)

    fun start() {
        Thread(task).start() // expect (default mode): TaskOwner start this.count
    }

    @Synchronized
    fun count(): Int = count // expect (default mode): TaskOwner count this.count
}

class WeakTask(owner: TaskOwner) : Runnable {
    private val owner = WeakReference(owner)

    override fun run() {
        owner.get()?.let { it.count++ }
    }
}

/** Safe: the task takes its owner's monitor, which the reader holds. */
class LockingOwner {
    @JvmField var count = 0
    private val task = LockingWeakTask(this)

    fun start() {
        Thread(task).start()
    }

    @Synchronized
    fun count(): Int = count
}

class LockingWeakTask(owner: LockingOwner) : Runnable {
    private val owner = WeakReference(owner)

    override fun run() {
        val o = owner.get() ?: return
        synchronized(o) { o.count++ }
    }
}
