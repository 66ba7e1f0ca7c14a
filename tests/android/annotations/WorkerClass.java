package fixtures.android.annotations;

import androidx.annotation.BinderThread;
import androidx.annotation.MainThread;
import androidx.annotation.WorkerThread;

/**
 * A class-level @WorkerThread makes every method background code, except one annotated for
 * the main thread; a method-level @BinderThread is background code too.
 */
@WorkerThread
public class WorkerClass {
    private int mJobs;
    private int mShown;
    private int mCalls;

    void enqueue() {
        mJobs++; // expect: WorkerClass enqueue this.mJobs
    }

    @MainThread
    void show() {
        mShown = mJobs; // expect: WorkerClass show this.mJobs
    }

    @MainThread
    void hide() {
        mShown = 0;
    }

    @BinderThread
    void onTransact() {
        mCalls++; // expect: WorkerClass onTransact this.mCalls
    }
}
