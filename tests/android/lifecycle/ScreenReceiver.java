package fixtures.android.lifecycle;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;

/** BroadcastReceiver.onReceive runs on the main thread. */
public class ScreenReceiver extends BroadcastReceiver {
    private boolean mScreenOn;
    private int mReceived;

    @Override
    public void onReceive(Context context, Intent intent) {
        mScreenOn = Intent.ACTION_SCREEN_ON.equals(intent.getAction());
        synchronized (this) {
            mReceived++;
        }
    }

    public synchronized boolean isScreenOn() {
        return mScreenOn; // expect: ScreenReceiver isScreenOn this.mScreenOn
    }

    public synchronized int received() {
        return mReceived;
    }
}
