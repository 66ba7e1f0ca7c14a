package fixtures.libraries.rxjava;

import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

/** Racy: the chain is subscribed on the io scheduler the field keeps. */
class FieldScheduler {
    private final Scheduler io = Schedulers.io();
    private String loaded;

    void load(String value) {
        Single.fromCallable(() -> loaded = value).subscribeOn(io).subscribe(); // expect: FieldScheduler load this.loaded
    }

    String loaded() {
        return loaded; // expect: FieldScheduler loaded this.loaded
    }
}

/** Racy: a static field set in the class initialiser keeps the computation scheduler. */
class StaticScheduler {
    private static final Scheduler WORKER;

    static {
        WORKER = Schedulers.computation();
    }

    private int ticks;

    void tick() {
        Single.just(1).observeOn(WORKER).subscribe(n -> ticks += n); // expect: StaticScheduler tick this.ticks
    }

    int ticks() {
        return ticks; // expect: StaticScheduler ticks this.ticks
    }
}

/** Schedulers an application keeps in one place, for the classes below. */
final class AppSchedulers {
    private static final AppSchedulers INSTANCE = new AppSchedulers();
    private final Scheduler disk = Schedulers.single();

    static Scheduler background() {
        return Schedulers.io();
    }

    static AppSchedulers get() {
        return INSTANCE;
    }

    Scheduler disk() {
        return disk;
    }
}

/** Racy: a static method returns the io scheduler. */
class ProvidedScheduler {
    private int saved;

    void save() {
        Single.fromCallable(() -> saved++).subscribeOn(AppSchedulers.background()).subscribe(); // expect: ProvidedScheduler save this.saved
    }

    int saved() {
        return saved; // expect: ProvidedScheduler saved this.saved
    }
}

/**
 * A getter returns the field that keeps single(): one task at a time, so the function's write
 * races with the getter's read, not with itself.
 */
class SerialProvidedScheduler {
    private int written;

    void write() {
        Single.fromCallable(() -> written++).subscribeOn(AppSchedulers.get().disk()).subscribe();
    }

    int written() {
        return written; // expect: SerialProvidedScheduler written this.written
    }
}

/** Not followed: a scheduler given to the constructor (injected, often trampoline() in tests). */
class InjectedScheduler {
    private final Scheduler io;
    private String loaded;

    InjectedScheduler(Scheduler io) {
        this.io = io;
    }

    void load(String value) {
        Single.fromCallable(() -> loaded = value).subscribeOn(io).subscribe();
    }

    String loaded() {
        return loaded;
    }
}

/** Not followed: a field given io() by one constructor and trampoline() by the other keeps no one scheduler. */
class EitherScheduler {
    private final Scheduler scheduler;
    private String loaded;

    EitherScheduler() {
        scheduler = Schedulers.io();
    }

    EitherScheduler(boolean inPlace) {
        scheduler = Schedulers.trampoline();
    }

    void load(String value) {
        Single.fromCallable(() -> loaded = value).subscribeOn(scheduler).subscribe();
    }

    String loaded() {
        return loaded;
    }
}

/** Not followed: a conditional gives the field io() or single(): it keeps no one scheduler. */
class ChosenScheduler {
    private final Scheduler scheduler;
    private String loaded;

    ChosenScheduler(boolean serial) {
        scheduler = serial ? Schedulers.single() : Schedulers.io();
    }

    void load(String value) {
        Single.fromCallable(() -> loaded = value).subscribeOn(scheduler).subscribe();
    }

    String loaded() {
        return loaded;
    }
}

/** The schedulers of an application in static fields (another module's in a multi-module build). */
final class DatabaseSchedulers {
    static final Scheduler DATABASE = Schedulers.io();
}

/** Racy: a static field keeps the io scheduler. */
class StaticFieldScheduler {
    private int saved;

    void save() {
        Single.fromCallable(() -> saved++).subscribeOn(DatabaseSchedulers.DATABASE).subscribe(); // expect: StaticFieldScheduler save this.saved
    }

    int saved() {
        return saved; // expect: StaticFieldScheduler saved this.saved
    }
}
