package com.acme.b;

import com.acme.a.Loader;

/**
 * Continues the library's futures: the continuation of the loaded task's future runs on the
 * task's thread, so its write races with the read (mName); that of a future made complete runs
 * here (mLabel).
 */
public class Profile {
    private final Loader mLoader = new Loader();
    private String mName;
    private String mLabel;

    public void refresh(String key) {
        mLoader.load(key).thenAccept(s -> mName = s);
    }

    public String name() {
        return mName;
    }

    public void relabel(String key) {
        mLoader.known(key).thenAccept(s -> mLabel = s);
    }

    public String label() {
        return mLabel;
    }
}
