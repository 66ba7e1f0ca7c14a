package androidx.core.app;

import android.app.Service;
import android.content.Intent;
import android.os.IBinder;

/**
 * Stand-in for androidx's JobIntentService (androidx.core, not part of the framework jar), with
 * its real package, name and callback: work is handed to onHandleWork on a background thread.
 */
public abstract class JobIntentService extends Service {
    protected abstract void onHandleWork(Intent intent);

    @Override
    public IBinder onBind(Intent intent) {
        return null;
    }
}
