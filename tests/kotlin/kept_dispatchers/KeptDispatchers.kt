package kfixtures.kept_dispatchers

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOn
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.newSingleThreadContext
import kotlinx.coroutines.withContext
import java.util.concurrent.Executors

// Racy: a dispatcher kept in a property only ever given Dispatchers.IO is that dispatcher: the
// block launched on it runs on a background pool.
class PropertyDispatcher(private val scope: CoroutineScope) {
    private val io = Dispatchers.IO
    private var cache = 0

    fun refresh() {
        scope.launch(io) { // expect: PropertyDispatcher refresh this.cache
            cache = 1
        }
    }

    fun peek(): Int = cache // expect: PropertyDispatcher peek this.cache
}

// Racy: withContext on a property typed as a dispatcher and given Dispatchers.Default.
class DefaultProperty {
    private val background: CoroutineDispatcher = Dispatchers.Default
    private var hits = 0

    suspend fun count() {
        withContext(background) { // expect: DefaultProperty count this.hits
            hits++
        }
    }

    fun hits(): Int = hits // expect: DefaultProperty hits this.hits
}

// Racy: a dispatcher injected through the constructor, with Dispatchers.IO as its default value
// (the form the platform's guidance recommends): the default is the dispatcher the class is
// written to run on.
class InjectedDefault(private val io: CoroutineDispatcher = Dispatchers.IO) {
    private var loads = 0

    suspend fun load() {
        withContext(io) { // expect: InjectedDefault load this.loads
            loads++
        }
    }

    fun loads(): Int = loads // expect: InjectedDefault loads this.loads
}

// Racy: a dispatcher kept in a companion object's property.
class CompanionDispatcher(private val scope: CoroutineScope) {
    private var cache = 0

    fun refresh() {
        scope.launch(IO) { // expect: CompanionDispatcher refresh this.cache
            cache = 1
        }
    }

    fun peek(): Int = cache // expect: CompanionDispatcher peek this.cache

    companion object {
        private val IO = Dispatchers.IO
    }
}

// Racy: a flow moved to a kept dispatcher by flowOn.
class FlowOnProperty {
    private val io = Dispatchers.IO
    private var fetched = 0

    fun items(): Flow<Int> = flow {
        fetched++
        emit(fetched)
    }.flowOn(io) // expect: FlowOnProperty items this.fetched

    fun fetched(): Int = fetched // expect: FlowOnProperty fetched this.fetched
}

// Racy: a scope made on a kept dispatcher runs what is launched on it there.
class ScopeOnProperty {
    private val io = Dispatchers.IO
    private val scope = CoroutineScope(io)
    private var cache = 0

    fun refresh() {
        scope.launch { cache = 1 } // expect: ScopeOnProperty refresh this.cache
    }

    fun peek(): Int = cache // expect: ScopeOnProperty peek this.cache
}

// Dispatchers kept by an object, read through its property's getter from other classes.
object AppDispatchers {
    val io: CoroutineDispatcher = Dispatchers.IO
    val main: CoroutineDispatcher = Dispatchers.Main
}

// Racy: the getter of AppDispatchers.io returns a dispatcher of a background pool.
class SharedDispatcherUser(private val scope: CoroutineScope) {
    private var cache = 0

    fun refresh() {
        scope.launch(AppDispatchers.io) { // expect: SharedDispatcherUser refresh this.cache
            cache = 1
        }
    }

    fun peek(): Int = cache // expect: SharedDispatcherUser peek this.cache
}

// Safe: the getter of AppDispatchers.main returns the main thread's dispatcher.
class SharedMainUser(private val scope: CoroutineScope) {
    private var clicks = 0

    fun click() {
        scope.launch(AppDispatchers.main) { clicks++ }
    }

    fun clicks(): Int = clicks
}

// Safe: a property kept on Dispatchers.Main runs the block on the main thread.
class MainProperty(private val scope: CoroutineScope) {
    private val main = Dispatchers.Main
    private var clicks = 0

    fun click() {
        scope.launch(main) { clicks++ }
    }

    fun clicks(): Int = clicks
}

// Safe: a constructor default of Dispatchers.Main.
class InjectedMainDefault(private val scope: CoroutineScope, private val ui: CoroutineDispatcher = Dispatchers.Main) {
    private var clicks = 0

    fun click() {
        scope.launch(ui) { clicks++ }
    }

    fun clicks(): Int = clicks
}

// Not followed: a dispatcher injected without a default is of unknown origin.
class InjectedDispatcher(private val scope: CoroutineScope, private val dispatcher: CoroutineDispatcher) {
    private var cache = 0

    fun refresh() {
        scope.launch(dispatcher) { cache = 1 }
    }

    fun peek(): Int = cache
}

// Not followed: a property also given a dispatcher of unknown origin.
class SwappedDispatcher(private val scope: CoroutineScope) {
    private var io: CoroutineDispatcher = Dispatchers.IO
    private var cache = 0

    fun use(other: CoroutineDispatcher) {
        io = other
    }

    fun refresh() {
        scope.launch(io) { cache = 1 }
    }

    fun peek(): Int = cache
}

// Safe: the block and the reader hold the same lock.
class LockedProperty(private val scope: CoroutineScope) {
    private val io = Dispatchers.IO
    private val lock = Any()
    private var cache = 0

    fun refresh() {
        scope.launch(io) {
            synchronized(lock) { cache = 1 }
        }
    }

    fun peek(): Int = synchronized(lock) { cache }
}

// Racy: a dispatcher of a fixed pool of threads runs the blocks launched on it at once: the
// block races with itself.
class PoolWriter(private val scope: CoroutineScope) {
    private val pool = Executors.newFixedThreadPool(4).asCoroutineDispatcher()
    private var count = 0

    fun bump() {
        scope.launch(pool) { count++ } // expect: PoolWriter bump this.count
    }
}

// Safe: a dispatcher of one thread runs its blocks one at a time, and nothing else touches the
// counter.
@OptIn(kotlinx.coroutines.DelicateCoroutinesApi::class, kotlinx.coroutines.ExperimentalCoroutinesApi::class)
class SingleThreadWriter(private val scope: CoroutineScope) {
    private val db = newSingleThreadContext("db")
    private var count = 0

    fun bump() {
        scope.launch(db) { count++ }
    }
}

// Safe: an executor of one thread, as a dispatcher.
class SingleExecutorWriter(private val scope: CoroutineScope) {
    private val one = Executors.newSingleThreadExecutor().asCoroutineDispatcher()
    private var count = 0

    fun bump() {
        scope.launch(one) { count++ }
    }
}

// Racy: Dispatchers.IO limited to one thread runs its blocks one at a time, but still on a
// background thread: the reader races with the block's write (reported at the read; the write
// races with no other write).
@OptIn(kotlinx.coroutines.ExperimentalCoroutinesApi::class)
class LimitedReader(private val scope: CoroutineScope) {
    private val serial = Dispatchers.IO.limitedParallelism(1)
    private var count = 0

    fun bump() {
        scope.launch(serial) {
            count++
        }
    }

    fun count(): Int = count // expect: LimitedReader count this.count
}

// Racy: a suspend function that suspends before it launches. kotlinc makes its state machine a
// class of its own, whose invokeSuspend resumes refresh(): the race is reported at refresh(), not
// again at that class.
class SuspendingLauncher(private val scope: CoroutineScope) {
    private val io = Dispatchers.IO
    private var cache = 0

    suspend fun refresh() {
        delay(10)
        scope.launch(io) { // expect: SuspendingLauncher refresh this.cache
            cache = 1
        }
    }

    fun peek(): Int = cache // expect: SuspendingLauncher peek this.cache
}

// The dispatchers of an application, behind an interface its classes are given.
interface DispatcherProvider {
    val io: CoroutineDispatcher
    val main: CoroutineDispatcher
}

class DefaultDispatcherProvider : DispatcherProvider {
    override val io: CoroutineDispatcher = Dispatchers.IO
    override val main: CoroutineDispatcher = Dispatchers.Main
}

// Racy: a dispatcher got through an interface every implementation of which gives Dispatchers.IO.
class ProvidedRepository(private val dispatchers: DispatcherProvider) {
    private var cached = 0

    suspend fun refresh() {
        withContext(dispatchers.io) { // expect: ProvidedRepository refresh this.cached
            cached++
        }
    }

    fun cached(): Int = cached // expect: ProvidedRepository cached this.cached
}

// Safe: the provider's main dispatcher.
class ProvidedMainRepository(private val scope: CoroutineScope, private val dispatchers: DispatcherProvider) {
    private var clicks = 0

    fun click() {
        scope.launch(dispatchers.main) { clicks++ }
    }

    fun clicks(): Int = clicks
}

// Not followed: two implementations of the interface give different dispatchers.
interface WorkDispatchers {
    val work: CoroutineDispatcher
}

class IoWorkDispatchers : WorkDispatchers {
    override val work: CoroutineDispatcher = Dispatchers.IO
}

class MainWorkDispatchers : WorkDispatchers {
    override val work: CoroutineDispatcher = Dispatchers.Main
}

class WorkRepository(private val scope: CoroutineScope, private val dispatchers: WorkDispatchers) {
    private var ticks = 0

    fun tick() {
        scope.launch(dispatchers.work) { ticks++ }
    }

    fun ticks(): Int = ticks
}

// Racy: a dispatcher of one thread made by newSingleThreadContext runs its blocks one at a time,
// on a background thread: the reader races with the block's write (reported at the read).
@OptIn(kotlinx.coroutines.DelicateCoroutinesApi::class, kotlinx.coroutines.ExperimentalCoroutinesApi::class)
class SingleThreadReader(private val scope: CoroutineScope) {
    private val db = newSingleThreadContext("db")
    private var count = 0

    fun bump() {
        scope.launch(db) { count++ }
    }

    fun count(): Int = count // expect: SingleThreadReader count this.count
}

// Racy: newFixedThreadPoolContext makes a pool: its blocks race with each other.
@OptIn(kotlinx.coroutines.DelicateCoroutinesApi::class)
class FixedContextWriter(private val scope: CoroutineScope) {
    private val pool = kotlinx.coroutines.newFixedThreadPoolContext(4, "pool")
    private var count = 0

    fun bump() {
        scope.launch(pool) { count++ } // expect: FixedContextWriter bump this.count
    }
}
