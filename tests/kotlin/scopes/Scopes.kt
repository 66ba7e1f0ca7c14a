package kfixtures.scopes

import androidx.lifecycle.LifecycleOwner
import androidx.lifecycle.ViewModel
import androidx.lifecycle.coroutineScope
import androidx.lifecycle.lifecycleScope
import androidx.lifecycle.viewModelScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.GlobalScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

// Racy: GlobalScope has no dispatcher of its own, so its coroutines run on Dispatchers.Default's
// pool, alongside the rest of the class.
class GlobalLauncher {
    private var cache = 0

    fun refresh() {
        GlobalScope.launch { cache = 42 } // expect: GlobalLauncher refresh this.cache
    }

    fun peek(): Int = cache // expect: GlobalLauncher peek this.cache
}

// Safe: the block and the reader hold the same lock.
class LockedGlobalLauncher {
    private val lock = Any()
    private var cache = 0

    fun refresh() {
        GlobalScope.launch { synchronized(lock) { cache = 42 } }
    }

    fun peek(): Int = synchronized(lock) { cache }
}

// Racy: a view model's scope runs its block on the main thread, and the block's withContext on a
// background pool: the pool's write races with the getter.
class FeedViewModel : ViewModel() {
    private var items: List<String> = emptyList()
    private var shown = 0

    fun load() {
        viewModelScope.launch {
            val loaded = withContext(Dispatchers.IO) { fetch().also { items = it } } // expect: FeedViewModel$load$1 invokeSuspend this.this$0.items
            shown = loaded.size
        }
    }

    fun current(): List<String> = items // expect: FeedViewModel current this.items

    private fun fetch(): List<String> = listOf("a", "b")
}

// Safe: everything the view model's block does runs on the main thread.
class CounterViewModel : ViewModel() {
    private var count = 0

    fun increment() {
        viewModelScope.launch { count++ }
    }

    fun current(): Int = count
}

// Racy: a lifecycle owner's scope, the same way.
class Screen(private val owner: LifecycleOwner) {
    private var total = 0

    fun start() {
        owner.lifecycleScope.launch {
            withContext(Dispatchers.Default) { total = 7 } // expect: Screen$start$1 invokeSuspend this.this$0.total
        }
    }

    fun total(): Int = total // expect: Screen total this.total
}

// Racy: Dispatchers.Main.immediate is the main thread as Dispatchers.Main is: the block is
// followed there, and its withContext block runs on a pool.
class ImmediateLauncher(private val scope: kotlinx.coroutines.CoroutineScope) {
    private var state = 0

    fun start() {
        scope.launch(Dispatchers.Main.immediate) {
            withContext(Dispatchers.IO) { state = 1 } // expect: ImmediateLauncher$start$1 invokeSuspend this.this$0.state
        }
    }

    fun state(): Int = state // expect: ImmediateLauncher state this.state
}

// Racy: a scope field made on Dispatchers.IO joined to a supervisor job: the dispatcher stays IO.
class SupervisedOwner {
    private val scope = kotlinx.coroutines.CoroutineScope(kotlinx.coroutines.SupervisorJob() + Dispatchers.IO)
    private var cache = 0

    fun refresh() {
        scope.launch { cache = 1 } // expect: SupervisedOwner refresh this.cache
    }

    fun peek(): Int = cache // expect: SupervisedOwner peek this.cache
}

// Safe: the main dispatcher joined to a job and a name: the block runs on the main thread.
class SupervisedMainOwner {
    private val scope =
        kotlinx.coroutines.CoroutineScope(Dispatchers.Main + kotlinx.coroutines.Job() + kotlinx.coroutines.CoroutineName("ui"))
    private var cache = 0

    fun refresh() {
        scope.launch { cache = 1 }
    }

    fun peek(): Int = cache
}

// Not followed: another scope's context after Dispatchers.IO may hold a dispatcher that wins.
class InheritedContextOwner(other: kotlinx.coroutines.CoroutineScope) {
    private val scope = kotlinx.coroutines.CoroutineScope(Dispatchers.IO + other.coroutineContext)
    private var cache = 0

    fun refresh() {
        scope.launch { cache = 1 }
    }

    fun peek(): Int = cache
}

// Racy: a context joined at the call, Dispatchers.IO and a job kept in a field.
class JoinedContextLauncher(private val scope: kotlinx.coroutines.CoroutineScope) {
    private val job = kotlinx.coroutines.SupervisorJob()
    private var cache = 0

    fun refresh() {
        scope.launch(Dispatchers.IO + job) { cache = 1 } // expect: JoinedContextLauncher refresh this.cache
    }

    fun peek(): Int = cache // expect: JoinedContextLauncher peek this.cache
}

// Safe: the main dispatcher and a job: the block runs on the main thread.
class JoinedMainLauncher(private val scope: kotlinx.coroutines.CoroutineScope) {
    private val job = kotlinx.coroutines.Job()
    private var cache = 0

    fun refresh() {
        scope.launch(Dispatchers.Main + job) { cache = 1 }
    }

    fun peek(): Int = cache
}

// Not followed: a context given as a parameter, after Dispatchers.IO, may hold a dispatcher.
class JoinedUnknownLauncher(private val scope: kotlinx.coroutines.CoroutineScope) {
    private var cache = 0

    fun refresh(other: kotlin.coroutines.CoroutineContext) {
        scope.launch(Dispatchers.IO + other) { cache = 1 }
    }

    fun peek(): Int = cache
}

// Racy: a lifecycle's own scope runs on the main thread too, and its block's withContext on a pool.
class Tracker(private val lifecycle: androidx.lifecycle.Lifecycle) {
    private var seen = 0

    fun track() {
        lifecycle.coroutineScope.launch {
            withContext(Dispatchers.Default) { seen = 1 } // expect: Tracker$track$1 invokeSuspend this.this$0.seen
        }
    }

    fun seen(): Int = seen // expect: Tracker seen this.seen
}
