package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerExecutor;
import android.os.HandlerThread;
import android.os.Looper;
import androidx.core.os.ExecutorCompat;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * An executor that posts to a handler (a method reference to Handler.post, a HandlerExecutor,
 * ExecutorCompat.create) runs its tasks one at a time on the handler's looper: on the main
 * thread for a main-looper handler, on the worker for a HandlerThread's. A pool runs them at
 * once, on its threads. A handler of unknown looper (one the activity is given) is not
 * followed, as a post to it is not.
 */
public class HandlerExecutorActivity extends Activity {
    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private final Executor mOnMain = mMainHandler::post;
    private final Executor mAlsoOnMain = new HandlerExecutor(mMainHandler);
    private final Executor mPool = Executors.newCachedThreadPool();
    private Handler mHandler;
    private Executor mOnLooper;
    private Handler mWorkerHandler;
    private Executor mOnWorker;
    private Executor mAlsoOnWorker;
    private int mShown;
    private int mSaved;
    private int mSynced;
    private int mLoaded;
    private int mUploaded;
    private int mPolled;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread worker = new HandlerThread("worker");
        worker.start();
        mWorkerHandler = new Handler(worker.getLooper());
        mOnWorker = mWorkerHandler::post;
        mAlsoOnWorker = ExecutorCompat.create(mWorkerHandler);
    }

    void show() {
        mOnMain.execute(() -> mShown++);
        mAlsoOnMain.execute(() -> mShown++);
        new HandlerExecutor(mMainHandler).execute(() -> mShown++);
    }

    void save() {
        mOnWorker.execute(() -> mSaved++);
    }

    void sync() {
        mAlsoOnWorker.execute(() -> mSynced++);
    }

    void resync() {
        ExecutorCompat.create(mWorkerHandler).execute(() -> mSynced++);
    }

    void upload() {
        new HandlerExecutor(mWorkerHandler).execute(() -> mUploaded++);
    }

    void poll() {
        mOnLooper.execute(() -> mPolled++);
    }

    void load() {
        mPool.execute(() -> mLoaded++); // expect: HandlerExecutorActivity load this.mLoaded
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mSaved + " " + mSynced + " " + mLoaded); // expect: HandlerExecutorActivity onResume this.mSaved, this.mSynced, this.mLoaded
        setTitle(mUploaded + " " + mPolled); // expect: HandlerExecutorActivity onResume this.mUploaded
    }

    void attach(Handler handler) {
        mHandler = handler;
        mOnLooper = mHandler::post;
    }
}
