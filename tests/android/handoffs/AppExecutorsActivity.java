package fixtures.android.handoffs;

import android.app.Activity;

/**
 * Tasks given to the app's executors run as the holder's constructor was given them: the disk
 * thread's one at a time (mSaved races only with onResume's read), the main thread's on the main
 * thread (mShown, no race), the network pool's on many threads (mFetched races with itself and
 * with onResume's read). A holder made with a pool by one caller of its package and one thread
 * by another is a pool's (mIndexed).
 */
public class AppExecutorsActivity extends Activity {
    private final AppExecutors mExecutors = new AppExecutors();
    private final IoExecutors mIo = IoExecutors.serial();
    private int mSaved;
    private int mShown;
    private int mFetched;
    private int mIndexed;

    void save() {
        mExecutors.diskIO().execute(() -> {
            mSaved++;
            mExecutors.mainThread().execute(() -> mShown = mSaved);
        });
    }

    void fetch() {
        mExecutors.networkIO().execute(() -> mFetched++);
    }

    void index() {
        mIo.io().execute(() -> mIndexed++);
    }

    @Override
    protected void onResume() {
        super.onResume();
        mShown++;
        int seen = mSaved + mFetched + mIndexed;
    }
}
