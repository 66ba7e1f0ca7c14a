package fixtures.android.handoffs;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Handler;
import android.os.HandlerThread;

/**
 * A receiver whose onReceive leads, through a task posted to a worker, back to the method that
 * registers it: a cycle of calls through the registration. The worker's write of mNextAlarm
 * races with dump()'s read, whichever method of the cycle the analysis starts from.
 */
public class AlarmTracker {
    private final Context mContext;
    private final Handler mWorker;
    private boolean mRegistered;
    private long mNextAlarm;

    private final BroadcastReceiver mReceiver = new BroadcastReceiver() {
        @Override
        public void onReceive(Context context, Intent intent) {
            evaluate();
        }
    };

    private final Runnable mEvaluateOnWorker = new Runnable() {
        @Override
        public void run() {
            evaluateOnWorker();
        }
    };

    public AlarmTracker(Context context) {
        mContext = context;
        HandlerThread thread = new HandlerThread("alarms");
        thread.start();
        mWorker = new Handler(thread.getLooper());
    }

    public void refresh() {
        evaluate();
    }

    private void evaluate() {
        mWorker.post(mEvaluateOnWorker);
    }

    private void evaluateOnWorker() {
        mNextAlarm = System.currentTimeMillis() + 60_000;
        setRegistered(mNextAlarm > 0);
    }

    private void setRegistered(boolean registered) {
        if (registered == mRegistered) {
            return;
        }
        if (registered) {
            mContext.registerReceiver(mReceiver, new IntentFilter(Intent.ACTION_TIME_CHANGED));
        } else {
            mContext.unregisterReceiver(mReceiver);
        }
        mRegistered = registered;
    }

    public long dump() {
        return mNextAlarm;
    }
}
