package fixtures.android.looper;

import android.os.Looper;

/**
 * Main-looper checks: the branch where the check holds runs on the main thread, the other on
 * any thread.
 */
public class LooperChecks {
    private int mValue;
    private int mMainOnly;
    private int mChecked;
    private int mThreadChecked;

    void set(int value) {
        if (Looper.myLooper() == Looper.getMainLooper()) {
            mValue = value;
        } else {
            mValue = -value; // expect: LooperChecks set this.mValue
        }
    }

    void setOnMain(int value) {
        if (Looper.myLooper() != Looper.getMainLooper()) {
            return;
        }
        mMainOnly = value;
    }

    int mainOnly() {
        return mMainOnly; // expect: LooperChecks mainOnly this.mMainOnly
    }

    void check(int value) {
        if (!Looper.getMainLooper().isCurrentThread()) {
            throw new IllegalStateException("not on the main thread");
        }
        mChecked = value;
    }

    void checkThread(int value) {
        if (Looper.getMainLooper().getThread() != Thread.currentThread()) {
            throw new IllegalStateException("not on the main thread");
        }
        mThreadChecked = value;
    }
}
