package dev.racer.sample.app;

import dev.racer.sample.annotations.ThreadSafe;
import dev.racer.sample.lib.Counter;

/** Safe: every object written here is freshly allocated by the call itself (owned). */
@ThreadSafe
public class Formatter {
    public String format(String[] words) {
        StringBuilder out = new StringBuilder();
        Counter count = new Counter();
        for (String w : words) {
            out.append(w).append(' ');
            count.increment();
        }
        return out.append('(').append(count.get()).append(')').toString();
    }
}
