package kfixtures.thread_locals

// Safe: objects made only as a ThreadLocal's value (`withInitial { }`, and `also { set(it) }`,
// whose inlined lambda copies the new object into locals of its own), of classes the file keeps
// private: each thread uses its own, whatever monitor the class takes.
private class Scratch {
    private val text = StringBuilder()
    private var uses = 0

    @Synchronized
    fun reset() {
        uses = 0
    }

    fun render(s: String): String {
        uses++
        text.setLength(0)
        return text.append(s).toString()
    }
}

private class Chain {
    private var depth = 0

    @Synchronized
    fun depth() = depth

    fun push() {
        depth++
    }
}

object Renderer {
    private val scratch = ThreadLocal.withInitial { Scratch() }
    private val chains = ThreadLocal<Chain>()

    fun render(s: String): String = scratch.get().render(s)

    fun push() {
        val chain = chains.get() ?: Chain().also { chains.set(it) }
        chain.push()
    }
}

// Racy: the same shapes with a public class, which other modules may make and share.
class SharedChain {
    private var depth = 0

    @Synchronized
    fun depth() = depth

    fun push() {
        depth++
    }
}

object SharedRenderer {
    private val chains = ThreadLocal<SharedChain>()

    fun push() {
        val chain = chains.get() ?: SharedChain().also { chains.set(it) }
        chain.push()
    }
}

// Safe: an internal class (read from its `kotlin.Metadata`) is public in the class file, but the
// Kotlin code of other modules cannot make it: its thread's, as a private one is.
internal class InternalChain {
    private var depth = 0

    @Synchronized
    fun depth() = depth

    fun push() {
        depth++
    }
}

object InternalRenderer {
    private val chains = ThreadLocal<InternalChain>()

    fun push() {
        val chain = chains.get() ?: InternalChain().also { chains.set(it) }
        chain.push()
    }
}
