package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;
import androidx.core.os.HandlerCompat;

/**
 * A message sent to a handler made in the method with a callback, kept in a local or not, runs
 * the callback's handleMessage on the handler's looper: a lambda and the activity itself on a
 * HandlerThread's looper (their writes race with onResume), an anonymous Handler.Callback on the
 * main looper and a lambda given to new Handler(callback) in onStart, on the main looper there
 * (their writes race with the worker-thread reader describe() only). Handler.createAsync(looper,
 * callback) makes one too: a lambda on the HandlerThread's looper (races with onResume), a method
 * reference through HandlerCompat on the main looper (races with describe() only). A handler
 * made with a callback on a looper of unknown thread is not followed.
 */
public class LocalCallbackActivity extends Activity implements Handler.Callback {
    private final HandlerThread mThread = new HandlerThread("local-callbacks");
    private Object mSaved;
    private int mCounted;
    private int mShown;
    private int mMarked;
    private int mPolled;
    private int mQueued;
    private int mNoted;

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
        Handler queue = Handler.createAsync(mThread.getLooper(), msg -> {
            mQueued = msg.arg2;
            return true;
        });
        queue.sendEmptyMessage(5);
        HandlerCompat.createAsync(Looper.getMainLooper(), this::note).sendEmptyMessage(6);
    }

    private boolean note(Message msg) {
        mNoted = msg.what;
        return true;
    }

    void poll(Looper looper) {
        new Handler(looper, msg -> {
            mPolled++;
            return true;
        }).sendEmptyMessage(4);
        Handler.createAsync(looper, msg -> {
            mPolled--;
            return true;
        }).sendEmptyMessage(7);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mMarked + " " + mPolled + " " + mNoted;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mSaved + " " + mCounted + " " + mShown + " " + mMarked + " " + mPolled + " " + mQueued + " " + mNoted);
    }
}
