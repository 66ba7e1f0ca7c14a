package fixtures.android.background_work;

import java.util.ArrayList;
import java.util.List;

/**
 * Safe: a `oneway` interface's implementation. The binder delivers the calls to one object one
 * at a time, so the fields its callbacks share need no lock.
 */
public class ProgressListener extends IProgressListener.Stub {
    private int mPercent;
    private boolean mDone;
    private final List<Integer> mHistory = new ArrayList<>();

    @Override
    public void onProgress(int percent) {
        mPercent = percent;
        mHistory.add(percent);
    }

    @Override
    public void onDone() {
        if (mPercent == 100) {
            mDone = true;
        }
        mHistory.clear();
    }
}
