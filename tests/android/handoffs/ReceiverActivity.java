package fixtures.android.handoffs;

import android.app.Activity;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import androidx.core.content.ContextCompat;
import androidx.localbroadcastmanager.content.LocalBroadcastManager;

/**
 * A broadcast receiver registered with a scheduler Handler receives its intents on that
 * handler's thread; registered without one (or with null), on the main thread, as are the
 * receivers of a LocalBroadcastManager. The receivers given the worker handler, also through
 * ContextCompat, write what onResume reads on the main thread.
 */
public class ReceiverActivity extends Activity {
    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private Handler mWorkerHandler;
    private String mLastAction;
    private int mLevel;
    private int mScreenChanges;
    private boolean mCharging;
    private boolean mDocked;
    private int mSyncs;
    private int mLocalEvents;

    private final BroadcastReceiver mActionReceiver = new BroadcastReceiver() {
        @Override
        public void onReceive(Context context, Intent intent) {
            mLastAction = intent.getAction();
        }
    };

    private final BroadcastReceiver mBatteryReceiver = new BroadcastReceiver() {
        @Override
        public void onReceive(Context context, Intent intent) {
            mLevel = intent.getIntExtra("level", 0);
        }
    };

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread worker = new HandlerThread("broadcasts");
        worker.start();
        mWorkerHandler = new Handler(worker.getLooper());
    }

    @Override
    protected void onStart() {
        super.onStart();
        registerReceiver(mActionReceiver, new IntentFilter("fixtures.ACTION"), null, mWorkerHandler);
        registerReceiver(mBatteryReceiver, new IntentFilter(Intent.ACTION_BATTERY_CHANGED));
        registerReceiver(new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                mScreenChanges++;
            }
        }, new IntentFilter(Intent.ACTION_SCREEN_ON), null, mMainHandler);
        registerReceiver(new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                mCharging = true;
            }
        }, new IntentFilter(Intent.ACTION_POWER_CONNECTED), null, null);
        registerReceiver(new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                mDocked = intent.getIntExtra(Intent.EXTRA_DOCK_STATE, 0) != 0;
            }
        }, new IntentFilter(Intent.ACTION_DOCK_EVENT), null, mWorkerHandler, Context.RECEIVER_NOT_EXPORTED);
        ContextCompat.registerReceiver(this, new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                mSyncs++;
            }
        }, new IntentFilter("fixtures.SYNC"), null, mWorkerHandler, Context.RECEIVER_NOT_EXPORTED);
        LocalBroadcastManager.getInstance(this).registerReceiver(new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                mLocalEvents++;
            }
        }, new IntentFilter("fixtures.LOCAL"));
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mLastAction + mLevel + mScreenChanges + mCharging + mDocked + mSyncs + mLocalEvents);
    }
}
