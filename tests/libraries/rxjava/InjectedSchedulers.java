package fixtures.libraries.rxjava;

import dagger.Module;
import dagger.Provides;
import io.reactivex.rxjava3.android.schedulers.AndroidSchedulers;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import javax.inject.Inject;
import javax.inject.Named;

/** The schedulers an application's injector provides, by name (a Dagger module). */
@Module
final class SchedulersModule {
    @Provides
    @Named("io")
    static Scheduler io() {
        return Schedulers.io();
    }

    @Provides
    @Named("main")
    static Scheduler main() {
        return AndroidSchedulers.mainThread();
    }
}

/** Racy: the injector gives the parameter the scheduler its qualifier is provided with, io(). */
class InjectedIoScheduler {
    private final Scheduler io;
    private String loaded;

    @Inject
    InjectedIoScheduler(@Named("io") Scheduler io) {
        this.io = io;
    }

    void load(String value) {
        Single.fromCallable(() -> loaded = value).subscribeOn(io).subscribe(); // expect: InjectedIoScheduler load this.loaded
    }

    String loaded() {
        return loaded; // expect: InjectedIoScheduler loaded this.loaded
    }
}

/** Safe: the scheduler provided as "main" is the main thread's. */
class InjectedMainScheduler {
    private final Scheduler main;
    private String shown;

    @Inject
    InjectedMainScheduler(@Named("main") Scheduler main) {
        this.main = main;
    }

    void show(String value) {
        Single.fromCallable(() -> shown = value).subscribeOn(main).subscribe();
    }

    String shown() {
        return shown;
    }
}

/**
 * Racy: a field the injector sets (through a generated members injector) with the scheduler its
 * qualifier is provided with, io().
 */
class FieldInjectedScheduler {
    @Inject
    @Named("io")
    Scheduler io;

    private String loaded;

    void load(String value) {
        Single.fromCallable(() -> loaded = value).subscribeOn(io).subscribe(); // expect: FieldInjectedScheduler load this.loaded
    }

    String loaded() {
        return loaded; // expect: FieldInjectedScheduler loaded this.loaded
    }
}

/** Safe: the field provided as "main" is the main thread's. */
class FieldInjectedMainScheduler {
    @Inject
    @Named("main")
    Scheduler main;

    private String shown;

    void show(String value) {
        Single.fromCallable(() -> shown = value).subscribeOn(main).subscribe();
    }

    String shown() {
        return shown;
    }
}
