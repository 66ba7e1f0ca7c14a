package kfixtures.injected_dispatchers

import dagger.Module
import dagger.Provides
import javax.inject.Inject
import javax.inject.Named
import javax.inject.Qualifier
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

// The qualifiers an application declares for its dispatchers, and the module that provides them
// (as a Hilt application writes them, without Hilt's component annotation).
@Qualifier
@Retention(AnnotationRetention.BINARY)
annotation class IoDispatcher

@Qualifier
@Retention(AnnotationRetention.BINARY)
annotation class MainDispatcher

@Qualifier
@Retention(AnnotationRetention.BINARY)
annotation class TestedDispatcher

@Module
object DispatchersModule {
    @IoDispatcher
    @Provides
    fun providesIoDispatcher(): CoroutineDispatcher = Dispatchers.IO

    @MainDispatcher
    @Provides
    fun providesMainDispatcher(): CoroutineDispatcher = Dispatchers.Main

    @Named("default")
    @Provides
    fun providesDefaultDispatcher(): CoroutineDispatcher = Dispatchers.Default

    @Named("main")
    @Provides
    fun providesNamedMainDispatcher(): CoroutineDispatcher = Dispatchers.Main
}

// Two modules provide this qualifier differently (one for tests): not followed.
@Module
object FirstModule {
    @TestedDispatcher
    @Provides
    fun io(): CoroutineDispatcher = Dispatchers.IO
}

@Module
object SecondModule {
    @TestedDispatcher
    @Provides
    fun main(): CoroutineDispatcher = Dispatchers.Main
}

// Racy: the injector gives the parameter the dispatcher its qualifier is provided with,
// Dispatchers.IO.
class NewsRepository @Inject constructor(@IoDispatcher private val ioDispatcher: CoroutineDispatcher) {
    private var cached = 0

    suspend fun refresh() {
        withContext(ioDispatcher) { // expect: NewsRepository refresh this.cached
            cached++
        }
    }

    fun cached(): Int = cached // expect: NewsRepository cached this.cached
}

// Racy: a named qualifier, told apart by its value.
class NamedRepository @Inject constructor(
    private val scope: CoroutineScope,
    @Named("default") private val background: CoroutineDispatcher,
) {
    private var loads = 0

    fun load() {
        scope.launch(background) { // expect: NamedRepository load this.loads
            loads++
        }
    }

    fun loads(): Int = loads // expect: NamedRepository loads this.loads
}

// Safe: the main thread's dispatcher, by qualifier and by name.
class MainRepository @Inject constructor(
    private val scope: CoroutineScope,
    @MainDispatcher private val main: CoroutineDispatcher,
    @Named("main") private val ui: CoroutineDispatcher,
) {
    private var clicks = 0

    fun click() {
        scope.launch(main) { clicks++ }
        scope.launch(ui) { clicks++ }
    }

    fun clicks(): Int = clicks
}

// Not followed: a qualifier two modules provide differently, and a parameter without one.
class AmbiguousRepository @Inject constructor(
    private val scope: CoroutineScope,
    @TestedDispatcher private val tested: CoroutineDispatcher,
    private val plain: CoroutineDispatcher,
) {
    private var count = 0

    fun bump() {
        scope.launch(tested) { count++ }
        scope.launch(plain) { count++ }
    }

    fun count(): Int = count
}

// A qualifier with an enum value, one annotation for every dispatcher (as the platform's sample
// application declares them): told apart by the constant.
enum class AppDispatcher { Default, IO, Main }

@Qualifier
@Retention(AnnotationRetention.RUNTIME)
annotation class Dispatcher(val dispatcher: AppDispatcher)

@Module
object EnumDispatchersModule {
    @Provides
    @Dispatcher(AppDispatcher.IO)
    fun providesIoDispatcher(): CoroutineDispatcher = Dispatchers.IO

    @Provides
    @Dispatcher(AppDispatcher.Default)
    fun providesDefaultDispatcher(): CoroutineDispatcher = Dispatchers.Default

    @Provides
    @Dispatcher(AppDispatcher.Main)
    fun providesMainDispatcher(): CoroutineDispatcher = Dispatchers.Main
}

// Racy: @Dispatcher(IO) is provided with Dispatchers.IO.
class OfflineFirstRepository @Inject constructor(@Dispatcher(AppDispatcher.IO) private val io: CoroutineDispatcher) {
    private var synced = 0

    suspend fun sync() {
        withContext(io) { // expect: OfflineFirstRepository sync this.synced
            synced++
        }
    }

    fun synced(): Int = synced // expect: OfflineFirstRepository synced this.synced
}

// Safe: @Dispatcher(Main) is the main thread's.
class MainEnumRepository @Inject constructor(
    private val scope: CoroutineScope,
    @Dispatcher(AppDispatcher.Main) private val main: CoroutineDispatcher,
) {
    private var clicks = 0

    fun click() {
        scope.launch(main) { clicks++ }
    }

    fun clicks(): Int = clicks
}

// Racy: a property the injector sets (the system makes services and receivers, so they can only be
// injected so); kotlinc puts its qualifier on the property.
class SyncService {
    @Inject
    @IoDispatcher
    lateinit var io: CoroutineDispatcher

    private var runs = 0

    fun start(scope: CoroutineScope) {
        scope.launch(io) { // expect: SyncService start this.runs
            runs++
        }
    }

    fun runs(): Int = runs // expect: SyncService runs this.runs
}

// Racy: the qualifier on the field itself.
class FieldQualifiedService {
    @Inject
    @field:Named("default")
    lateinit var background: CoroutineDispatcher

    private var runs = 0

    fun start(scope: CoroutineScope) {
        scope.launch(background) { // expect: FieldQualifiedService start this.runs
            runs++
        }
    }

    fun runs(): Int = runs // expect: FieldQualifiedService runs this.runs
}

// Safe: the main thread's dispatcher. Not followed: a property set by hand, without @Inject.
class MainFieldService {
    @Inject
    @MainDispatcher
    lateinit var main: CoroutineDispatcher

    @IoDispatcher
    lateinit var handSet: CoroutineDispatcher

    private var runs = 0

    fun start(scope: CoroutineScope) {
        scope.launch(main) { runs++ }
        scope.launch(handSet) { runs++ }
    }

    fun runs(): Int = runs
}
