package fixtures.android.background_work;

import android.content.Context;
import androidx.work.Worker;
import androidx.work.WorkerParameters;

/**
 * WorkManager calls a worker's doWork() on a background thread, once per worker object, and
 * onStopped() on another thread while the work may still run: a plain flag onStopped sets and
 * doWork polls races; a volatile one does not; doWork's own counter is its thread's alone.
 */
public class UploadWorker extends Worker {
    private boolean mStopped;
    private volatile boolean mCancelled;
    private int mUploaded;

    public UploadWorker(Context context, WorkerParameters params) {
        super(context, params);
    }

    @Override
    public Result doWork() {
        while (!mStopped) { // expect: UploadWorker doWork this.mStopped
            if (mCancelled || mUploaded > 10) {
                return Result.retry();
            }
            mUploaded++;
        }
        return Result.success();
    }

    @Override
    public void onStopped() {
        mStopped = true;
        mCancelled = true;
    }
}
