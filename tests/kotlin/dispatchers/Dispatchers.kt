package kfixtures.dispatchers

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.MainScope
import kotlinx.coroutines.async
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

// Racy: a block launched on Dispatchers.IO runs on a background pool, alongside the rest of the
// class (and alongside itself, when refresh() is called again before it ends). The block is a
// class of its own (a suspend lambda): its accesses are reported at the call that launches it.
class Launcher(private val scope: CoroutineScope) {
    private var cache = 0

    fun refresh() {
        scope.launch(Dispatchers.IO) { // expect: Launcher refresh this.cache
            cache = 42
        }
    }

    fun peek(): Int = cache // expect: Launcher peek this.cache
}

// Racy: withContext(Dispatchers.Default) runs its block on a background pool while the class's
// other methods run on their threads.
class ContextSwitcher {
    private var hits = 0

    suspend fun count() {
        withContext(Dispatchers.Default) { // expect: ContextSwitcher count this.hits
            hits++
        }
    }

    fun hits(): Int = hits // expect: ContextSwitcher hits this.hits
}

// Racy: async on Dispatchers.IO, as launch.
class Prefetcher(private val scope: CoroutineScope) {
    private var loaded = false

    fun prefetch() {
        scope.async(Dispatchers.IO) { // expect: Prefetcher prefetch this.loaded
            loaded = true
        }
    }

    fun isLoaded(): Boolean = loaded // expect: Prefetcher isLoaded this.loaded
}

// Safe: the block and the reader hold the same lock.
class LockedLauncher(private val scope: CoroutineScope) {
    private val lock = Any()
    private var cache = 0

    fun refresh() {
        scope.launch(Dispatchers.IO) {
            synchronized(lock) { cache = 42 }
        }
    }

    fun peek(): Int = synchronized(lock) { cache }
}

// Safe: Dispatchers.Main runs the block on the main thread, one at a time.
class MainLauncher(private val scope: CoroutineScope) {
    private var clicks = 0

    fun click() {
        scope.launch(Dispatchers.Main) {
            clicks++
        }
    }
}

// Not followed: without a dispatcher the block runs on the scope's own (a view model's scope runs
// on the main thread), which racer does not know.
class ScopeDispatcher(private val scope: CoroutineScope) {
    private var cache = 0

    fun refresh() {
        scope.launch { cache = 1 }
    }

    fun peek(): Int = cache
}

// Racy: a scope made on Dispatchers.IO and kept in a field only ever given it runs what is
// launched on it without a dispatcher on a background pool.
class IoScopeOwner {
    private val scope = CoroutineScope(Dispatchers.IO)
    private var cache = 0

    fun refresh() {
        scope.launch { cache = 1 } // expect: IoScopeOwner refresh this.cache
    }

    fun peek(): Int = cache // expect: IoScopeOwner peek this.cache
}

// Safe: MainScope() runs on the main thread.
class MainScopeOwner {
    private val scope = MainScope()
    private var clicks = 0

    fun click() {
        scope.launch { clicks++ }
    }
}

// Not followed: a scope field also given a scope of unknown origin.
class SwappedScopeOwner(other: CoroutineScope) {
    private var scope = CoroutineScope(Dispatchers.IO)
    private var cache = 0

    init {
        scope = other
    }

    fun refresh() {
        scope.launch { cache = 1 }
    }

    fun peek(): Int = cache
}

// Racy: the dispatcher comes from a helper; its summary says it returns Dispatchers.IO.
class HelperDispatcher(private val scope: CoroutineScope) {
    private var cache = 0

    private fun io(): CoroutineDispatcher = Dispatchers.IO

    fun refresh() {
        scope.launch(io()) { cache = 1 } // expect: HelperDispatcher refresh this.cache
    }

    fun peek(): Int = cache // expect: HelperDispatcher peek this.cache
}

// Safe: the constructor launches one block, which runs once per object and is the only code
// touching the counter.
class LaunchesOnceInInit(scope: CoroutineScope) {
    private var polls = 0

    init {
        scope.launch(Dispatchers.IO) { polls++ }
    }
}

// Racy: two blocks launched by one constructor run at once.
class LaunchesTwiceInInit(scope: CoroutineScope) {
    private var polls = 0

    init {
        scope.launch(Dispatchers.IO) { polls++ } // expect: LaunchesTwiceInInit <init> this.polls
        scope.launch(Dispatchers.IO) { polls++ }
    }
}
