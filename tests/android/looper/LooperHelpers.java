package fixtures.android.looper;

import android.os.Looper;

/**
 * Main-looper checks made in a helper that returns them: javac gives the comparison's value
 * through a branch to two constants, which the helper's summary keeps as a main-thread check.
 */
public class LooperHelpers {
    private int mValue;
    private int mCount;

    private static boolean onMainThread() {
        return Looper.myLooper() == Looper.getMainLooper();
    }

    private static boolean offMainThread() {
        return Looper.getMainLooper().getThread() != Thread.currentThread();
    }

    void set(int value) {
        if (onMainThread()) {
            return;
        }
        mValue = value; // expect: LooperHelpers set this.mValue
    }

    void count() {
        boolean background = offMainThread();
        if (background) {
            mCount++; // expect: LooperHelpers count this.mCount
        }
    }
}

/** Safe: the helpers' checks pass before every write (the other branch throws). */
class CheckedByHelpers {
    private int mValue;

    private static boolean onMainThread() {
        return Looper.myLooper() == Looper.getMainLooper();
    }

    private static boolean offMainThread() {
        return Looper.myLooper() != Looper.getMainLooper();
    }

    void set(int value) {
        if (!onMainThread()) {
            throw new IllegalStateException("main thread only");
        }
        mValue = value;
    }

    void reset() {
        if (offMainThread()) {
            throw new IllegalStateException("main thread only");
        }
        mValue = 0;
    }
}
