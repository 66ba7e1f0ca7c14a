package it.gen;

/** Generated code, directly in it.gen. */
public class Parser {
    private int state;

    public synchronized void update(int value) {
        state = value;
    }

    public int read() {
        return state;
    }
}
