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
