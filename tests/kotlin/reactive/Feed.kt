package kfixtures.reactive

import io.reactivex.rxjava3.core.Observable
import io.reactivex.rxjava3.core.Single
import io.reactivex.rxjava3.schedulers.Schedulers

/**
 * RxJava from Kotlin: kotlinc makes the callable an `invokedynamic` and the consumer a class of
 * its own implementing RxJava's `Consumer`; both run on the io scheduler the chain is subscribed
 * on, alongside `cached()` and `shown()`.
 */
class Feed {
    private var cache: String? = null
    private var shown = 0

    fun refresh() {
        Single.fromCallable { cache = "feed"; 1 } // expect: Feed refresh this.cache
            .subscribeOn(Schedulers.io())
            .subscribe { n -> shown = n } // expect: Feed refresh this.shown
    }

    fun cached(): String? = cache // expect: Feed cached this.cache

    fun shown(): Int = shown // expect: Feed shown this.shown
}

/** No scheduler: the chain runs where it is subscribed, and nothing says the class is shared. */
class LocalFeed {
    private var shown = 0

    fun show() {
        Observable.just(1).subscribe { n -> shown = n }
    }

    fun shown(): Int = shown
}

/**
 * A property keeps the io scheduler: kotlinc checks that `Schedulers.io()` (a Java method) gave
 * no null before storing it, and the chain reads the field.
 */
class KeptFeed {
    private val io = Schedulers.io()
    private var shown = 0

    fun refresh() {
        Single.just(1).observeOn(io).subscribe { n -> shown = n } // expect: KeptFeed refresh this.shown
    }

    fun shown(): Int = shown // expect: KeptFeed shown this.shown
}

/** An object keeps the computation scheduler; the chain calls its getter. */
object Workers {
    val computation = Schedulers.computation()
}

class WorkerFeed {
    private var count = 0

    fun count() {
        Single.fromCallable { count++ }.subscribeOn(Workers.computation).subscribe() // expect: WorkerFeed count this.count
    }

    fun counted(): Int = count // expect: WorkerFeed counted this.count
}

/** Not followed: a scheduler given to the constructor. */
class InjectedFeed(private val scheduler: io.reactivex.rxjava3.core.Scheduler) {
    private var shown = 0

    fun refresh() {
        Single.just(1).observeOn(scheduler).subscribe { n -> shown = n }
    }

    fun shown(): Int = shown
}

/** A chain kept in a `val` and subscribed on io in the next statement. */
class StagedFeed {
    private var staged = 0

    fun stage() {
        val source = Single.fromCallable { staged++ } // expect: StagedFeed stage this.staged
        source.subscribeOn(Schedulers.io()).subscribe()
    }

    fun staged(): Int = staged // expect: StagedFeed staged this.staged
}
