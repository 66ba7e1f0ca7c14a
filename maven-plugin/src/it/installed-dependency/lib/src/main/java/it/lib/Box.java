package it.lib;

/** Not thread-safe, but nothing here is concurrent: lib alone has no race. */
public class Box {
    private int value;

    public void set(int v) {
        value = v;
    }

    public int get() {
        return value;
    }
}
