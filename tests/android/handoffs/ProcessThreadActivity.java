package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;

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

/** A poller whose handler is made on the looper its constructor is given. */
class Poller {
    private final Handler mHandler;

    Poller() {
        this(ProcessThread.getHandler().getLooper(), false);
    }

    Poller(Looper looper, boolean test) {
        mHandler = new Handler(looper);
    }

    void post(Runnable poll) {
        mHandler.post(poll);
    }
}

/** The same, also given a looper a method of the app's own returns: not followed. */
class HeldPoller {
    private final Handler mHandler;

    HeldPoller() {
        this(ProcessThread.getHandler().getLooper());
    }

    HeldPoller(boolean held) {
        this(new MainLooperHolder().looper());
    }

    HeldPoller(Looper looper) {
        mHandler = new Handler(looper);
    }

    void post(Runnable poll) {
        mHandler.post(poll);
    }
}

/** A looper from code of the app's own: not known. */
class MainLooperHolder {
    Looper looper() {
        return Looper.getMainLooper();
    }
}

/** A poller on the main looper, and one whose constructor is given two threads' loopers. */
class MainPoller {
    private final Handler mHandler;

    MainPoller() {
        this(Looper.getMainLooper());
    }

    MainPoller(Looper looper) {
        mHandler = new Handler(looper);
    }

    void post(Runnable poll) {
        mHandler.post(poll);
    }
}

class EitherPoller {
    private final Handler mHandler;

    EitherPoller() {
        this(Looper.getMainLooper());
    }

    EitherPoller(boolean background) {
        this(ProcessThread.getHandler().getLooper());
    }

    EitherPoller(Looper looper) {
        mHandler = new Handler(looper);
    }

    void post(Runnable poll) {
        mHandler.post(poll);
    }
}

/** A poller given either looper by a conditional at its constructor's one call: not followed. */
class ChoicePoller {
    private final Handler mHandler;

    ChoicePoller(boolean onMain) {
        // The process thread's looper is the value computed last, just before the call.
        this(onMain ? Looper.getMainLooper() : ProcessThread.getHandler().getLooper());
    }

    ChoicePoller(Looper looper) {
        mHandler = new Handler(looper);
    }

    void post(Runnable poll) {
        mHandler.post(poll);
    }
}

/** A poller keeping the handler it is given, through a constructor that passes it on. */
class HandlerPoller {
    private final Handler mHandler;

    HandlerPoller() {
        this(ProcessThread.getHandler(), 0);
    }

    HandlerPoller(Handler handler, int delay) {
        this(handler);
    }

    HandlerPoller(Handler handler) {
        mHandler = handler;
    }

    void post(Runnable poll) {
        mHandler.post(poll);
    }
}

/**
 * Handlers kept in fields from a getter: the process thread's handler itself (mSaved), one made
 * on its looper (mSynced), and one made on the looper of another handler field (mPruned) run
 * their posts on that thread, where they race with onResume's reads. The main thread's handler
 * kept from its getter (mShown) does not race. A getter a subclass overrides (mJobs) and a field
 * given either the main thread's handler or the process thread's (mMixed) are not followed. A
 * handler made on the looper a constructor is given runs on the thread its calls give it: the
 * process thread's (mPolled races), the main thread's (mMainPolls does not); one whose
 * constructor is given both (mEitherPolls), also a looper of unknown thread (mHeldPolls), or
 * either by a conditional (mChoicePolls), is not followed. A poller keeping the handler its
 * constructor is given, passed on from another constructor, posts on the process thread
 * (mHandlerPolls); so does a field copying the process thread's handler field (mCopied).
 */
public class ProcessThreadActivity extends Activity {
    private final Handler mWorker = ProcessThread.getHandler();
    private final Handler mSync = new Handler(ProcessThread.getHandler().getLooper());
    private final Handler mPruner = new Handler(mWorker.getLooper());
    private final Handler mCopy = mWorker;
    private final Handler mUi = MainThreadHandler.get();
    private final JobRunner mRunner = new JobRunner();
    private final Poller mPoller = new Poller();
    private final MainPoller mMainPoller = new MainPoller();
    private final EitherPoller mEitherPoller = new EitherPoller();
    private final HeldPoller mHeldPoller = new HeldPoller();
    private final ChoicePoller mChoicePoller = new ChoicePoller(true);
    private final HandlerPoller mHandlerPoller = new HandlerPoller();
    private Handler mEither;
    private int mPolled;
    private int mMainPolls;
    private int mEitherPolls;
    private int mHeldPolls;
    private int mChoicePolls;
    private int mHandlerPolls;
    private int mCopied;
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

    void poll() {
        mPoller.post(() -> mPolled++);
        mMainPoller.post(() -> mMainPolls++);
        mEitherPoller.post(() -> mEitherPolls++);
        mHeldPoller.post(() -> mHeldPolls++);
        mChoicePoller.post(() -> mChoicePolls++);
        mHandlerPoller.post(() -> mHandlerPolls++);
        mCopy.post(() -> mCopied++);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("saved " + mSaved); // expect: ProcessThreadActivity onResume this.mSaved
        setTitle("synced " + mSynced); // expect: ProcessThreadActivity onResume this.mSynced
        setTitle("pruned " + mPruned); // expect: ProcessThreadActivity onResume this.mPruned
        setTitle("shown " + mShown + " jobs " + mJobs + " mixed " + mMixed);
        setTitle("polled " + mPolled); // expect: ProcessThreadActivity onResume this.mPolled
        setTitle("handler polls " + mHandlerPolls); // expect: ProcessThreadActivity onResume this.mHandlerPolls
        setTitle("copied " + mCopied); // expect: ProcessThreadActivity onResume this.mCopied
        setTitle("main polls " + mMainPolls + " either " + mEitherPolls + " held " + mHeldPolls + " choice " + mChoicePolls);
    }
}
