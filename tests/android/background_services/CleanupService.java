package fixtures.android.background_services;

import android.content.Intent;
import androidx.core.app.JobIntentService;

/**
 * JobIntentService.onHandleWork runs on a background thread (JobIntentService is androidx; the
 * fixtures declare a stand-in with its real name).
 */
public class CleanupService extends JobIntentService {
    private int mCleaned;
    private int mBatches;

    @Override
    protected void onHandleWork(Intent intent) {
        mCleaned++; // expect: CleanupService onHandleWork this.mCleaned
        synchronized (this) {
            mBatches++;
        }
    }

    @Override
    public void onDestroy() {
        super.onDestroy();
        synchronized (this) {
            mBatches = 0;
        }
    }
}
