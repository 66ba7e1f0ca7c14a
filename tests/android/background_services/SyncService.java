package fixtures.android.background_services;

import android.app.IntentService;
import android.content.Intent;

/**
 * IntentService.onHandleIntent runs on a worker thread, one intent after the other;
 * onCreate/onDestroy on main.
 */
public class SyncService extends IntentService {
    private int mSynced;
    private long mStarted;
    private int mRequests;

    public SyncService() {
        super("sync");
    }

    @Override
    public void onCreate() {
        super.onCreate();
        mStarted = System.currentTimeMillis();
    }

    @Override
    protected void onHandleIntent(Intent intent) {
        mSynced++;
        synchronized (this) {
            mRequests++;
        }
    }

    @Override
    public void onDestroy() {
        super.onDestroy();
        log(mSynced); // expect: SyncService onDestroy this.mSynced
        log(mStarted);
        synchronized (this) {
            log(mRequests);
        }
    }

    private static void log(long value) {}
}
