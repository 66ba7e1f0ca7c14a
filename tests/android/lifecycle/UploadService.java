package fixtures.android.lifecycle;

import android.app.Service;
import android.content.Intent;
import android.os.IBinder;

/** Service callbacks run on the main thread. */
public class UploadService extends Service {
    private int mStarts;
    private boolean mCreated;

    @Override
    public void onCreate() {
        super.onCreate();
        mCreated = true;
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        mStarts++;
        return START_NOT_STICKY;
    }

    @Override
    public IBinder onBind(Intent intent) {
        return null;
    }

    public synchronized int starts() {
        return mStarts; // expect: UploadService starts this.mStarts
    }
}
