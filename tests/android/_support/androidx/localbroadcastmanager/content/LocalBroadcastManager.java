package androidx.localbroadcastmanager.content;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.IntentFilter;

/** Stand-in for androidx's class: delivers its broadcasts on the main looper. */
public final class LocalBroadcastManager {
    private static LocalBroadcastManager sInstance;

    public static synchronized LocalBroadcastManager getInstance(Context context) {
        if (sInstance == null) {
            sInstance = new LocalBroadcastManager();
        }
        return sInstance;
    }

    public void registerReceiver(BroadcastReceiver receiver, IntentFilter filter) {
        throw new UnsupportedOperationException("stand-in");
    }
}
