package fixtures.android.background_services;

import android.content.Intent;
import androidx.core.app.JobIntentService;

/**
 * JobIntentService.onHandleWork runs on a background thread (JobIntentService is androidx; the
 * fixtures declare a stand-in with its real name), one piece of work after the other: its
 * counter of its own is safe, while what the main thread also writes is not.
 */
public class CleanupService extends JobIntentService {
    private int mCleaned;
    private int mBatches;
    private int mPending;

    @Override
    protected void onHandleWork(Intent intent) {
        mCleaned++;
        mPending--; // expect: CleanupService onHandleWork this.mPending
        synchronized (this) {
            mBatches++;
        }
    }

    @Override
    public void onDestroy() {
        super.onDestroy();
        mPending = 0;
        synchronized (this) {
            mBatches = 0;
        }
    }
}
