package it.gen.deep;

/** Generated code, in a package below it.gen. */
public class Lexer {
    private int state;

    public synchronized void update(int value) {
        state = value;
    }

    public int read() {
        return state;
    }
}
