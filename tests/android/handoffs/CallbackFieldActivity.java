package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * A handler made with a callback kept in a field of its own class: the callback the field is
 * given (a lambda, an anonymous Handler.Callback, a static method reference in a static field)
 * runs the messages sent to the handler, on the handler's looper. On a HandlerThread's looper
 * the lambda's write races with onResume; on the main looper the anonymous callback's and the
 * static callback's writes race with the worker-thread reader describe(), not with onResume. A
 * callback field given two different callbacks is not followed.
 */
public class CallbackFieldActivity extends Activity {
    private static int sPings;
    private static final Handler.Callback PING = CallbackFieldActivity::ping;

    private final HandlerThread mThread = new HandlerThread("field-callbacks");
    private final Handler.Callback mStore = msg -> {
        mStored = msg.obj;
        return true;
    };
    private final Handler.Callback mShow = new Handler.Callback() {
        @Override
        public boolean handleMessage(Message msg) {
            mShown = msg.arg1;
            return true;
        }
    };
    private Handler.Callback mEither;
    private Handler mStorer;
    private Handler mShower;
    private Handler mPinger;
    private Handler mChooser;
    private Object mStored;
    private int mShown;
    private int mChosen;

    private static boolean ping(Message msg) {
        sPings++;
        return true;
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mStorer = new Handler(mThread.getLooper(), mStore);
        mShower = new Handler(Looper.getMainLooper(), mShow);
        mPinger = new Handler(Looper.getMainLooper(), PING);
        mEither = msg -> {
            mChosen++;
            return true;
        };
        mChooser = new Handler(mThread.getLooper(), mEither);
    }

    void reset() {
        mEither = msg -> {
            mChosen = 0;
            return true;
        };
    }

    @Override
    protected void onStart() {
        super.onStart();
        mStorer.obtainMessage(0, "state").sendToTarget();
        mShower.sendEmptyMessage(1);
        mPinger.sendEmptyMessage(2);
        mChooser.sendEmptyMessage(3);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + sPings;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mStored + " " + mShown + " " + sPings + " " + mChosen);
    }
}
