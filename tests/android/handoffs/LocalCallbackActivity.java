package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * A message sent to a handler made in the method with a callback, kept in a local or not, runs
 * the callback's handleMessage on the handler's looper: a lambda and the activity itself on a
 * HandlerThread's looper (their writes race with onResume), an anonymous Handler.Callback on the
 * main looper and a lambda given to new Handler(callback) in onStart, on the main looper there
 * (their writes race with the worker-thread reader describe() only). A handler made with a
 * callback on a looper of unknown thread is not followed.
 */
public class LocalCallbackActivity extends Activity implements Handler.Callback {
    private final HandlerThread mThread = new HandlerThread("local-callbacks");
    private Object mSaved;
    private int mCounted;
    private int mShown;
    private int mMarked;
    private int mPolled;

    @Override
    public boolean handleMessage(Message msg) {
        mCounted += msg.what;
        return true;
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
    }

    @Override
    protected void onStart() {
        super.onStart();
        Handler saver = new Handler(mThread.getLooper(), msg -> {
            mSaved = msg.obj;
            return true;
        });
        saver.obtainMessage(0, "state").sendToTarget();
        new Handler(mThread.getLooper(), this).sendEmptyMessage(1);
        new Handler(Looper.getMainLooper(), new Handler.Callback() {
            @Override
            public boolean handleMessage(Message msg) {
                mShown = msg.arg1;
                return true;
            }
        }).sendEmptyMessage(2);
        Handler marker = new Handler(msg -> {
            mMarked++;
            return true;
        });
        marker.sendEmptyMessage(3);
    }

    void poll(Looper looper) {
        new Handler(looper, msg -> {
            mPolled++;
            return true;
        }).sendEmptyMessage(4);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mMarked + " " + mPolled;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mSaved + " " + mCounted + " " + mShown + " " + mMarked + " " + mPolled);
    }
}
