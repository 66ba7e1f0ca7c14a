package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.os.HandlerThread;

/** A runner whose jobs run on the handler a subclass may choose (its own thread's by default). */
class JobRunner {
    private final HandlerThread mThread = new HandlerThread("jobs");
    private final Handler mThreadHandler;
    protected final Handler mJobHandler;

    JobRunner() {
        mThread.start();
        mThreadHandler = new Handler(mThread.getLooper());
        mJobHandler = getJobHandler();
    }

    protected Handler getJobHandler() {
        return mThreadHandler;
    }
}

class MainJobRunner extends JobRunner {
    @Override
    protected Handler getJobHandler() {
        return MainThreadHandler.get();
    }
}

/**
 * Handlers kept in fields from a getter: the process thread's handler itself (mSaved), one made
 * on its looper (mSynced), and one made on the looper of another handler field (mPruned) run
 * their posts on that thread, where they race with onResume's reads. The main thread's handler
 * kept from its getter (mShown) does not race. A getter a subclass overrides (mJobs) and a field
 * given either the main thread's handler or the process thread's (mMixed) are not followed.
 */
public class ProcessThreadActivity extends Activity {
    private final Handler mWorker = ProcessThread.getHandler();
    private final Handler mSync = new Handler(ProcessThread.getHandler().getLooper());
    private final Handler mPruner = new Handler(mWorker.getLooper());
    private final Handler mUi = MainThreadHandler.get();
    private final JobRunner mRunner = new JobRunner();
    private Handler mEither;
    private int mSaved;
    private int mSynced;
    private int mPruned;
    private int mShown;
    private int mJobs;
    private int mMixed;

    void save() {
        mWorker.post(() -> mSaved++);
    }

    void sync() {
        mSync.post(() -> mSynced++);
    }

    void prune() {
        mPruner.post(() -> mPruned++);
    }

    void show() {
        mUi.post(() -> mShown++);
    }

    void queue() {
        mRunner.mJobHandler.post(() -> mJobs++);
    }

    void choose(boolean onMain) {
        // The process thread's handler is the value computed last, just before the store.
        mEither = onMain ? MainThreadHandler.get() : ProcessThread.getHandler();
        mEither.post(() -> mMixed++);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("saved " + mSaved); // expect: ProcessThreadActivity onResume this.mSaved
        setTitle("synced " + mSynced); // expect: ProcessThreadActivity onResume this.mSynced
        setTitle("pruned " + mPruned); // expect: ProcessThreadActivity onResume this.mPruned
        setTitle("shown " + mShown + " jobs " + mJobs + " mixed " + mMixed);
    }
}
