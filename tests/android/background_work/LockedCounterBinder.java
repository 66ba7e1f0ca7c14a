package fixtures.android.background_work;

/** The safe binder: its counter is kept under the object's lock by every method. */
public class LockedCounterBinder extends ICounter.Stub {
    private int mCount;

    @Override
    public synchronized int increment() {
        return ++mCount;
    }

    @Override
    public synchronized int current() {
        return mCount;
    }

    @Override
    public void record(int[] samples) {
        samples[0] = current();
    }
}
