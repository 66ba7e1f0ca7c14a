package fixtures.android.handoffs;

import android.app.Activity;
import android.os.HandlerExecutor;
import java.util.concurrent.Executor;

/**
 * Executors made on the handler a getter returns run their tasks where that handler runs its
 * posts: on the process thread for its getter's handler (mSaved through a HandlerExecutor kept
 * in a field, mSynced through a reference to the handler's post, mLoaded through an executor
 * made in the method, mPosted through a post to the getter's handler itself), where they race
 * with onResume's reads; on the main thread for the main thread's getter (mShown, no race).
 */
public class ProcessExecutorActivity extends Activity {
    private final Executor mOnProcess = new HandlerExecutor(ProcessThread.getHandler());
    private final Executor mPostsToProcess = ProcessThread.getHandler()::post;
    private final Executor mOnMain = new HandlerExecutor(MainThreadHandler.get());
    private final Executor mPostsToMain = MainThreadHandler.get()::post;
    private int mSaved;
    private int mSynced;
    private int mLoaded;
    private int mPosted;
    private int mShown;

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
        setTitle("shown " + mShown);
    }
}
