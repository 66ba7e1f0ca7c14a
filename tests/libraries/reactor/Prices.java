package fixtures.libraries.reactor;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Racy: the callable runs on the boundedElastic scheduler, alongside price(). */
class PriceCache {
    private final Map<String, Integer> prices = new HashMap<>();

    void refresh(String symbol) {
        Mono.fromCallable(() -> prices.put(symbol, 1)) // expect: PriceCache refresh this.prices
                .subscribeOn(Schedulers.boundedElastic())
                .subscribe();
    }

    Integer price(String symbol) {
        return prices.get(symbol); // expect: PriceCache price this.prices
    }
}

/** Racy: publishOn(parallel()) moves the function after it to the parallel scheduler. */
class TickCounter {
    private int ticks;

    void count() {
        Flux.range(0, 10).publishOn(Schedulers.parallel()).map(i -> ticks += i).subscribe(); // expect: TickCounter count this.ticks
    }

    int ticks() {
        return ticks; // expect: TickCounter ticks this.ticks
    }
}

/** Racy: Flux.interval emits on the parallel scheduler. */
class Heartbeat {
    private long beats;

    void start() {
        Flux.interval(Duration.ofSeconds(1)).subscribe(n -> beats = n); // expect: Heartbeat start this.beats
    }

    long beats() {
        return beats; // expect: Heartbeat beats this.beats
    }
}

/** Safe: without a scheduler, or on immediate(), the chain runs where it is subscribed. */
class InlineCache {
    private final Map<String, Integer> prices = new HashMap<>();

    void refresh(String symbol) {
        Mono.fromCallable(() -> prices.put(symbol, 1)).subscribe();
        Mono.fromCallable(() -> prices.put(symbol, 2)).subscribeOn(Schedulers.immediate()).subscribe();
    }

    Integer price(String symbol) {
        return prices.get(symbol);
    }
}

/** Safe: publishOn moves what follows it; the function before it runs where the chain is subscribed. */
class Formatter {
    private int formatted;

    void format() {
        Flux.just("a")
                .map(s -> {
                    formatted++;
                    return s;
                })
                .publishOn(Schedulers.parallel())
                .subscribe();
    }

    int formatted() {
        return formatted;
    }
}
