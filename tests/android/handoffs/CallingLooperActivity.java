package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.Looper;
import androidx.annotation.WorkerThread;

/**
 * A handler made without a looper (new Handler()) or on Looper.myLooper() is on the looper of
 * the thread that makes it. In an activity's field initializer (the framework makes activities
 * on the main thread) or a lifecycle callback, that is the main looper: what it is posted runs
 * on the main thread, racing with worker-thread readers, not with onResume. Made in a method of
 * unknown thread, it is not followed.
 */
public class CallingLooperActivity extends Activity {
    private final Handler mHandler = new Handler();
    private Handler mLooperHandler;
    private int mShown;
    private int mTicks;
    private int mPings;
    private int mFrames;
    private int mPolled;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mLooperHandler = new Handler(Looper.myLooper());
    }

    @WorkerThread
    void onProgress(int percent) {
        mHandler.post(() -> mShown = percent);
    }

    @Override
    protected void onStart() {
        super.onStart();
        Handler handler = new Handler();
        handler.postDelayed(() -> mTicks++, 1000);
        mLooperHandler.post(() -> mPings++);
        new Handler(Looper.myLooper()).post(() -> mFrames++);
    }

    void poll() {
        new Handler().post(() -> mPolled++);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mTicks + " " + mPings + " " + mFrames + " " + mPolled;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mTicks + " " + mPings + " " + mFrames + " " + mPolled);
    }
}
