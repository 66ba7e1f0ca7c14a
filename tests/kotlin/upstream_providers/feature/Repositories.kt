package kfixtures.upstream_providers.feature

import javax.inject.Inject
import javax.inject.Named
import kfixtures.upstream_providers.common.DefaultDispatcher
import kfixtures.upstream_providers.common.IoDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

// Racy: @IoDispatcher is provided, in the common module, with Dispatchers.IO.
class SyncRepository @Inject constructor(@IoDispatcher private val io: CoroutineDispatcher) {
    private var synced = 0

    suspend fun sync() {
        withContext(io) { // expect: SyncRepository sync this.synced
            synced++
        }
    }

    fun synced(): Int = synced // expect: SyncRepository synced this.synced
}

// Racy: @Named("io"), provided there too.
class NamedRepository @Inject constructor(
    private val scope: CoroutineScope,
    @Named("io") private val io: CoroutineDispatcher,
) {
    private var loads = 0

    fun load() {
        scope.launch(io) { // expect: NamedRepository load this.loads
            loads++
        }
    }

    fun loads(): Int = loads // expect: NamedRepository loads this.loads
}

// Not followed: a parameter without a qualifier (only @NotNull), and a qualifier no module
// provides.
class PlainRepository @Inject constructor(
    private val scope: CoroutineScope,
    private val dispatcher: CoroutineDispatcher,
    @DefaultDispatcher private val background: CoroutineDispatcher,
) {
    private var count = 0

    fun bump() {
        scope.launch(dispatcher) { count++ }
        scope.launch(background) { count++ }
    }

    fun count(): Int = count
}

// Racy: a property the injector sets, its qualifier provided in the common module.
class SyncReceiver {
    @Inject
    @IoDispatcher
    lateinit var io: CoroutineDispatcher

    private var received = 0

    fun onReceive(scope: CoroutineScope) {
        scope.launch(io) { // expect: SyncReceiver onReceive this.received
            received++
        }
    }

    fun received(): Int = received // expect: SyncReceiver received this.received
}
