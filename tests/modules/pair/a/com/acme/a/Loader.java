package com.acme.a;

import java.util.concurrent.CompletableFuture;

/** Loads on the common pool and returns the task's future without waiting for it. */
public class Loader {
    public CompletableFuture<String> load(String key) {
        return CompletableFuture.supplyAsync(() -> key.trim());
    }

    public CompletableFuture<String> known(String key) {
        return CompletableFuture.completedFuture(key);
    }
}
