package it.app;

/** A race no setting hides. */
public class Session {
    private int user;

    public synchronized void update(int value) {
        user = value;
    }

    public int read() {
        return user;
    }
}
