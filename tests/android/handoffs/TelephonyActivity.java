package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.telephony.TelephonyCallback;
import android.telephony.TelephonyDisplayInfo;
import android.telephony.TelephonyManager;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TelephonyCallback runs the listener methods it implements on the executor it is registered
 * with: a single-thread executor's thread here, the main thread's for the display callback, and
 * the binder thread that delivers the event for a direct executor.
 */
public class TelephonyActivity extends Activity {
    private final ExecutorService mWorker = Executors.newSingleThreadExecutor();
    private int mCallState;
    private int mCallChanges;
    private boolean mDisplayKnown;
    private int mServiceState;

    private class CallStateCallback extends TelephonyCallback implements TelephonyCallback.CallStateListener {
        @Override
        public void onCallStateChanged(int state) {
            mCallState = state;
            mCallChanges++;
        }
    }

    private class DisplayCallback extends TelephonyCallback implements TelephonyCallback.DisplayInfoListener {
        @Override
        public void onDisplayInfoChanged(TelephonyDisplayInfo info) {
            mDisplayKnown = true;
        }
    }

    private class ServiceStateCallback extends TelephonyCallback implements TelephonyCallback.ServiceStateListener {
        @Override
        public void onServiceStateChanged(android.telephony.ServiceState state) {
            mServiceState = state.getState();
        }
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        TelephonyManager telephony = getSystemService(TelephonyManager.class);
        telephony.registerTelephonyCallback(mWorker, new CallStateCallback());
        telephony.registerTelephonyCallback(getMainExecutor(), new DisplayCallback());
        Executor direct = Runnable::run;
        telephony.registerTelephonyCallback(direct, new ServiceStateCallback());
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mCallState + " " + mDisplayKnown);
    }
}
