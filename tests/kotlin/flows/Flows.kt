package kfixtures.flows

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.MainScope
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.SharedFlow
import kotlinx.coroutines.flow.SharingStarted
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.filter
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.flow.flowOn
import kotlinx.coroutines.flow.launchIn
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.shareIn
import kotlinx.coroutines.flow.stateIn
import kotlinx.coroutines.launch

// Racy: flowOn(Dispatchers.IO) runs the flow's block on a background pool, each time the flow
// is collected, while the reader runs on its caller's thread. The block's accesses are reported
// at the flowOn that hands it there.
class FetchingRepo {
    private var loads = 0

    fun items(): Flow<Int> = flow {
        loads++
        emit(loads)
    }.flowOn(Dispatchers.IO) // expect: FetchingRepo items this.loads

    fun loads(): Int = loads // expect: FetchingRepo loads this.loads
}

// Racy: map is inlined into a class of its own, a flow whose collector runs the mapping; the
// flowOn downstream moves it to a background pool.
class MappingRepo {
    private var mapped = 0

    fun items(): Flow<Int> = flowOf(1, 2).map {
        mapped++
        it
    }.flowOn(Dispatchers.Default) // expect: MappingRepo items this.mapped

    fun mapped(): Int = mapped // expect: MappingRepo mapped this.mapped
}

// Racy: the block upstream of an inlined operator (filter) runs where the flowOn below both
// moves them.
class FilteringRepo {
    private var fetched = 0

    fun items(): Flow<Int> = flow {
        fetched++
        emit(fetched)
    }.filter { it > 0 }.flowOn(Dispatchers.IO) // expect: FilteringRepo items this.fetched

    fun fetched(): Int = fetched // expect: FilteringRepo fetched this.fetched
}

// Racy: onEach takes its action as a suspend lambda; upstream of flowOn, it runs there.
class EachRepo {
    private var seen = 0

    fun items(): Flow<Int> = flowOf(1, 2).onEach { seen++ }.flowOn(Dispatchers.IO) // expect: EachRepo items this.seen

    fun seen(): Int = seen // expect: EachRepo seen this.seen
}

// Safe: an operator downstream of flowOn runs in the collector's context, which racer does not
// know; the flow is no evidence of concurrency.
class DownstreamRepo {
    private var after = 0

    fun items(): Flow<Int> = flowOf(1, 2).flowOn(Dispatchers.IO).onEach { after++ }

    fun after(): Int = after
}

// Safe: Dispatchers.Main runs the block on the main thread, one collection at a time.
class MainRepo {
    private var clicks = 0

    fun items(): Flow<Int> = flow {
        clicks++
        emit(clicks)
    }.flowOn(Dispatchers.Main)

    fun clicks(): Int = clicks
}

// Safe: the block and the reader hold the same lock.
class LockedRepo {
    private val lock = Any()
    private var loads = 0

    fun items(): Flow<Int> = flow {
        synchronized(lock) { loads++ }
        emit(1)
    }.flowOn(Dispatchers.IO)

    fun loads(): Int = synchronized(lock) { loads }
}

// The nearest flowOn downstream decides: the block runs on the main thread (safe), the mapping
// on a background pool (racy).
class TwoContextsRepo {
    private var produced = 0
    private var mapped = 0

    fun items(): Flow<Int> = flow {
        produced++
        emit(produced)
    }.flowOn(Dispatchers.Main).map {
        mapped++
        it
    }.flowOn(Dispatchers.IO) // expect: TwoContextsRepo items this.mapped

    fun produced(): Int = produced
    fun mapped(): Int = mapped // expect: TwoContextsRepo mapped this.mapped
}

// Racy: launchIn collects the flow in a scope kept in a field, made on Dispatchers.IO.
class LaunchedRepo {
    private val scope = CoroutineScope(Dispatchers.IO)
    private var seen = 0

    fun start() {
        flowOf(1, 2).onEach { seen++ }.launchIn(scope) // expect: LaunchedRepo start this.seen
    }

    fun seen(): Int = seen // expect: LaunchedRepo seen this.seen
}

// Racy: a flow collected inside a block launched on Dispatchers.IO: the collector runs there.
class CollectingRepo(private val scope: CoroutineScope) {
    private var total = 0

    fun start() {
        scope.launch(Dispatchers.IO) { // expect: CollectingRepo start this.total
            flowOf(1, 2).collect { total += it }
        }
    }

    fun total(): Int = total // expect: CollectingRepo total this.total
}

// Racy: a flow built and collected (first()) inside a block launched on Dispatchers.IO runs there.
class FirstRepo(private val scope: CoroutineScope) {
    private var tries = 0

    fun start() {
        scope.launch(Dispatchers.IO) { // expect: FirstRepo start this.tries
            flow {
                tries++
                emit(tries)
            }.first()
        }
    }

    fun tries(): Int = tries // expect: FirstRepo tries this.tries
}

// Safe: a flow is cold. Building it runs nothing; the flow returned runs where it is collected,
// which racer does not follow.
class ColdRepo {
    private var loads = 0

    fun items(): Flow<Int> = flow {
        loads++
        emit(loads)
    }

    fun loads(): Int = loads
}

// Racy: stateIn collects the flow in a coroutine of the scope it is given, here one kept in a
// field, made on Dispatchers.IO.
class StateRepo {
    private val scope = CoroutineScope(Dispatchers.IO)
    private var seen = 0

    fun counts(): StateFlow<Int> = flowOf(1, 2).onEach { seen++ }.stateIn(scope, SharingStarted.Eagerly, 0) // expect: StateRepo counts this.seen

    fun seen(): Int = seen // expect: StateRepo seen this.seen
}

// Safe: shareIn on a scope of the main dispatcher collects the flow on the main thread.
class SharedOnMainRepo {
    private val scope = MainScope()
    private var seen = 0

    fun counts(): SharedFlow<Int> = flowOf(1, 2).onEach { seen++ }.shareIn(scope, SharingStarted.Lazily)

    fun seen(): Int = seen
}

// Racy: shareIn, as stateIn, collects the flow in a coroutine of the scope it is given.
class SharedRepo {
    private val scope = CoroutineScope(Dispatchers.IO)
    private var seen = 0

    fun counts(): SharedFlow<Int> = flowOf(1, 2).onEach { seen++ }.shareIn(scope, SharingStarted.Lazily) // expect: SharedRepo counts this.seen

    fun seen(): Int = seen // expect: SharedRepo seen this.seen
}
