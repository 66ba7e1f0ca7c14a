package kfixtures.string_templates

import java.util.concurrent.Executors

/**
 * Racy: a string template turns the list and the builder a pool's task changes into text. With
 * string concatenation by `invokedynamic` (JVM 9 and later), the template is given the objects.
 */
class Journal {
    private val names = mutableListOf<String>()
    private val log = StringBuilder()
    private val pool = Executors.newFixedThreadPool(2)

    fun add(name: String) {
        pool.execute {
            names.add(name)
            log.append(name)
        }
    }

    fun describe(): String = "names: $names, log: $log"
}

/** Safe: the template is made under the lock the task holds; a string property. */
class LockedJournal {
    private val names = mutableListOf<String>()
    private var last = ""
    private val pool = Executors.newFixedThreadPool(2)

    fun add(name: String) {
        pool.execute {
            synchronized(this) {
                names.add(name)
                last = name
            }
        }
    }

    fun describe(): String = synchronized(this) { "names: $names, last: $last" }
}
