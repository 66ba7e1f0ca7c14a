package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * A message sent to a handler made with a callback runs the callback's handleMessage on the
 * handler's looper, one message at a time: a method reference to a static method, the activity
 * itself as the callback, a lambda, an anonymous Handler.Callback. On the main looper its writes
 * race with worker-thread readers, not with onResume; on a HandlerThread's looper they race with
 * onResume. A handler of unknown looper is not followed.
 */
public class CallbackHandlerActivity extends Activity implements Handler.Callback {
    private static int sTicks;

    private final HandlerThread mThread = new HandlerThread("callbacks");
    private final Handler mTicker = new Handler(Looper.getMainLooper(), CallbackHandlerActivity::tick);
    private Handler mSelf;
    private Handler mLoader;
    private Handler mSaver;
    private Handler mGiven;
    private int mShown;
    private Object mLoaded;
    private Object mSaved;
    private int mPolled;

    @Override
    public boolean handleMessage(Message msg) {
        mShown = msg.arg1;
        return true;
    }

    private static boolean tick(Message msg) {
        sTicks++;
        return true;
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mSelf = new Handler(mThread.getLooper(), this);
        mLoader = new Handler(mThread.getLooper(), msg -> {
            mLoaded = msg.obj;
            return true;
        });
        mSaver = new Handler(mThread.getLooper(), new Handler.Callback() {
            @Override
            public boolean handleMessage(Message msg) {
                mSaved = msg.obj;
                return true;
            }
        });
    }

    void attach(Looper looper) {
        mGiven = new Handler(looper, msg -> {
            mPolled++;
            return true;
        });
    }

    @WorkerThread
    void onProgress(int percent) {
        mTicker.sendEmptyMessage(percent);
    }

    @Override
    protected void onStart() {
        super.onStart();
        mSelf.sendMessage(mSelf.obtainMessage(0, 100, 0));
        mLoader.sendEmptyMessage(1);
        mSaver.obtainMessage(2, "state").sendToTarget();
        mGiven.sendEmptyMessage(0);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + sTicks;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + sTicks + " " + mLoaded + " " + mSaved + " " + mPolled);
    }
}
