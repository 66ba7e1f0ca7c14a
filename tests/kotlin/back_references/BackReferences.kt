package kfixtures.back_references

/** Racy: a task made with its owner and given to a new thread writes the owner's count. */
class TaskOwner {
    @JvmField var count = 0
    private val task = CountingTask(this)

    fun start() {
        Thread(task).start() // expect (default mode): TaskOwner start this.count
    }

    @Synchronized
    fun count(): Int = count // expect (default mode): TaskOwner count this.count
}

class CountingTask(private val owner: TaskOwner) : Runnable {
    override fun run() {
        owner.count++
    }
}

/** Racy: an inner object, called through the property that holds it, writes its outer object's field. */
class InnerCounter {
    private var seen = 0
    private val bumper = Bumper()

    fun bump() {
        bumper.bump() // expect (default mode): InnerCounter bump this.seen
    }

    @Synchronized
    fun seen(): Int = seen

    inner class Bumper {
        fun bump() {
            seen++
        }
    }
}

/** Safe: the task takes its owner's monitor, which the reader holds. */
class LockingOwner {
    @JvmField var count = 0
    private val task = LockingTask(this)

    fun start() {
        Thread(task).start()
    }

    @Synchronized
    fun count(): Int = count
}

class LockingTask(private val owner: LockingOwner) : Runnable {
    override fun run() {
        synchronized(owner) { owner.count++ }
    }
}
