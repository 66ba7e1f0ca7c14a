package dev.racer.sample.app;

import dev.racer.sample.annotations.ThreadSafe;
import dev.racer.sample.annotations.UiThread;

/**
 * Safe: {@code title} and {@code redraws} are confined to the main thread ({@code @UiThread}
 * methods run there only, one at a time); {@code pending}, used from any thread, is locked.
 */
@ThreadSafe
public class Screen {
    private final Object lock = new Object();
    private String title = "";
    private int redraws;
    private int pending;

    @UiThread
    public void setTitle(String newTitle) {
        title = newTitle;
        redraws++;
    }

    @UiThread
    public String title() {
        return title;
    }

    public void requestRedraw() {
        synchronized (lock) {
            pending++;
        }
    }
}
