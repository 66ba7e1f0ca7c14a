package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerExecutor;
import android.os.HandlerThread;
import java.util.concurrent.Executor;

/**
 * Executors made on the handler a getter returns run their tasks where that handler runs its
 * posts: on the process thread for its getter's handler (mSaved through a HandlerExecutor kept
 * in a field, mSynced through a reference to the handler's post, mLoaded through an executor
 * made in the method, mPosted through a post to the getter's handler itself), where they race
 * with onResume's reads; on the main thread for the main thread's getter (mShown, no race). An
 * executor on a handler made by Handler.createAsync runs its tasks on the looper given there
 * (mQueued, on a HandlerThread's).
 */
public class ProcessExecutorActivity extends Activity {
    private final Executor mOnProcess = new HandlerExecutor(ProcessThread.getHandler());
    private final Executor mPostsToProcess = ProcessThread.getHandler()::post;
    private final Executor mOnMain = new HandlerExecutor(MainThreadHandler.get());
    private final Executor mPostsToMain = MainThreadHandler.get()::post;
    private Executor mOnWorker;
    private int mSaved;
    private int mSynced;
    private int mLoaded;
    private int mPosted;
    private int mShown;
    private int mQueued;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread worker = new HandlerThread("worker");
        worker.start();
        mOnWorker = new HandlerExecutor(Handler.createAsync(worker.getLooper()));
    }

    void queue() {
        mOnWorker.execute(() -> mQueued++);
    }

    void save() {
        mOnProcess.execute(() -> mSaved++);
    }

    void sync() {
        mPostsToProcess.execute(() -> mSynced++);
    }

    void load() {
        new HandlerExecutor(ProcessThread.getHandler()).execute(() -> mLoaded++);
    }

    void post() {
        ProcessThread.getHandler().post(() -> mPosted++);
    }

    void show() {
        mOnMain.execute(() -> mShown++);
        mPostsToMain.execute(() -> mShown++);
        new HandlerExecutor(MainThreadHandler.get()).execute(() -> mShown++);
        MainThreadHandler.get().post(() -> mShown++);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("saved " + mSaved); // expect: ProcessExecutorActivity onResume this.mSaved
        setTitle("synced " + mSynced); // expect: ProcessExecutorActivity onResume this.mSynced
        setTitle("loaded " + mLoaded); // expect: ProcessExecutorActivity onResume this.mLoaded
        setTitle("posted " + mPosted); // expect: ProcessExecutorActivity onResume this.mPosted
        setTitle("queued " + mQueued); // expect: ProcessExecutorActivity onResume this.mQueued
        setTitle("shown " + mShown);
    }
}
