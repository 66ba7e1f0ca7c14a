package fixtures.libraries.rxjava;

import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

/** Racy: the chain made in one statement is subscribed on io in the next, through a local. */
class SubscribedLater {
    private int loads;

    void load() {
        Single<Integer> source = Single.fromCallable(() -> loads++); // expect: SubscribedLater load this.loads
        source.subscribeOn(Schedulers.io()).subscribe();
    }

    int loads() {
        return loads; // expect: SubscribedLater loads this.loads
    }
}

/** Racy: the local holds a chain moved to io; the function given to it in the next statement runs there. */
class MovedEarlier {
    private String last;

    void show(String value) {
        Single<String> moved = Single.just(value).observeOn(Schedulers.io());
        moved.subscribe(s -> last = s); // expect: MovedEarlier show this.last
    }

    String last() {
        return last; // expect: MovedEarlier last this.last
    }
}

/** Racy: three statements, two locals: the first function runs where the last one subscribes. */
class ThreeStatements {
    private int parsed;

    void parse() {
        Single<Integer> read = Single.fromCallable(() -> parsed++); // expect: ThreeStatements parse this.parsed
        Single<Integer> doubled = read.map(n -> n * 2);
        doubled.subscribeOn(Schedulers.computation()).subscribe();
    }

    int parsed() {
        return parsed; // expect: ThreeStatements parsed this.parsed
    }
}

/** Not followed: a local given two chains (one moved to io, one not). */
class ReassignedLocal {
    private String last;

    void show(String value, boolean inPlace) {
        Single<String> source = Single.just(value).observeOn(Schedulers.io());
        if (inPlace) {
            source = Single.just(value);
        }
        source.subscribe(s -> last = s);
    }

    String last() {
        return last;
    }
}

/** Safe: the chain kept in the local is subscribed without a scheduler: it runs in the caller. */
class SubscribedInPlace {
    private int calls;

    void call() {
        Single<Integer> source = Single.fromCallable(() -> calls++);
        source.subscribe();
    }

    int calls() {
        return calls;
    }
}
