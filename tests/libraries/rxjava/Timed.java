package fixtures.libraries.rxjava;

import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.functions.Consumer;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.concurrent.TimeUnit;

/** Racy: interval emits on the computation scheduler. */
class Poller {
    private int polls;

    void start() {
        Observable.interval(1, TimeUnit.SECONDS).subscribe(t -> polls++); // expect: Poller start this.polls
    }

    int polls() {
        return polls; // expect: Poller polls this.polls
    }
}

/** Racy: a timer given the io scheduler emits there. */
class DelayedSave {
    private String saved;

    void save(String value) {
        Completable.timer(1, TimeUnit.SECONDS, Schedulers.io()).subscribe(() -> saved = value); // expect: DelayedSave save this.saved
    }

    String saved() {
        return saved; // expect: DelayedSave saved this.saved
    }
}

/** Safe: delay moves what follows it; the callable before it runs where the chain is subscribed. */
class DelayedCall {
    private int calls;

    void call() {
        Single.fromCallable(() -> calls++).delay(1, TimeUnit.SECONDS).subscribe();
    }

    int calls() {
        return calls;
    }
}

/** Racy: an anonymous Consumer is a function like a lambda; interval runs it on computation. */
class AnonymousPoller {
    private long last;

    void start() {
        Observable.interval(1, TimeUnit.SECONDS)
                .subscribe( // expect: AnonymousPoller start this.last
                        new Consumer<Long>() {
                            @Override
                            public void accept(Long tick) {
                                last = tick;
                            }
                        });
    }

    long last() {
        return last; // expect: AnonymousPoller last this.last
    }
}
