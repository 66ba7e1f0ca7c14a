package dev.racer.sample.lib;

import dev.racer.sample.annotations.ThreadSafe;
import java.util.concurrent.locks.ReentrantLock;

/** Safe: the fields are only touched while the {@link ReentrantLock} is held. */
@ThreadSafe
public class EventLog {
    private final ReentrantLock lock = new ReentrantLock();
    private String last = "";
    private int size;

    public void append(String event) {
        lock.lock();
        try {
            last = event;
            size++;
        } finally {
            lock.unlock();
        }
    }

    public int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }
}
