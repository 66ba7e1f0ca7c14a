package fixtures.android.background_work;

import java.util.List;

/**
 * A binder serves calls from other processes on the binder thread pool, several at once: a plain
 * counter its methods bump races. What its constructor sets is seen by every call, even after it
 * has handed itself to a registry (the object serves calls only once it is built and handed out),
 * and the array each call gets is its own.
 */
public class CounterBinder extends ICounter.Stub {
    private final String mName;
    private int mStep;
    private int mCount;

    public CounterBinder(String name, List<ICounter> registry) {
        registry.add(this);
        mName = name;
        mStep = 1;
    }

    @Override
    public int increment() {
        mCount += mStep; // expect: CounterBinder increment this.mCount
        return mCount;
    }

    @Override
    public int current() {
        return mCount; // expect: CounterBinder current this.mCount
    }

    @Override
    public void record(int[] samples) {
        samples[0] = mStep;
    }

    @Override
    public String toString() {
        return mName;
    }
}
