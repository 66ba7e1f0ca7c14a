package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.telephony.TelephonyCallback;
import android.telephony.TelephonyManager;
import androidx.core.os.ExecutorCompat;
import java.util.concurrent.Executor;

/**
 * Executors made here to post to a handler given from elsewhere, whose looper is unknown: where
 * they run a task or a callback is not followed, as a post to that handler is not.
 */
public class UnknownLooperActivity extends Activity {
    private Handler mHandler;
    private int mPosted;
    private int mCallState;

    private class CallStateCallback extends TelephonyCallback implements TelephonyCallback.CallStateListener {
        @Override
        public void onCallStateChanged(int state) {
            mCallState = state;
        }
    }

    void attach(Handler handler) {
        mHandler = handler;
    }

    void post() {
        Executor executor = ExecutorCompat.create(mHandler);
        executor.execute(() -> mPosted++);
    }

    void listen(TelephonyManager telephony) {
        telephony.registerTelephonyCallback(mHandler::post, new CallStateCallback());
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mPosted + " " + mCallState);
    }
}
