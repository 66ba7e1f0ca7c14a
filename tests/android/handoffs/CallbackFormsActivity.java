package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import androidx.annotation.WorkerThread;

/**
 * The other ways to make a handler with a callback: Handler.createAsync(looper, callback) on a
 * HandlerThread's looper (its callback's write races with onResume), and new Handler(callback) in
 * onCreate, on the main looper there (its callback's write races with a worker-thread reader,
 * not with onResume).
 */
public class CallbackFormsActivity extends Activity {
    private final HandlerThread mThread = new HandlerThread("forms");
    private Handler mAsync;
    private Handler mCalling;
    private int mFlushed;
    private int mCounted;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mAsync = Handler.createAsync(mThread.getLooper(), msg -> {
            mFlushed++;
            return true;
        });
        mCalling = new Handler(msg -> {
            mCounted++;
            return true;
        });
    }

    @WorkerThread
    void onProgress() {
        mAsync.sendEmptyMessage(0);
        mCalling.sendEmptyMessage(0);
    }

    @WorkerThread
    int counted() {
        return mCounted;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mFlushed + " " + mCounted);
    }
}
