package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import androidx.annotation.WorkerThread;
import androidx.core.os.HandlerCompat;

/**
 * Handler.createAsync(looper) and HandlerCompat.createAsync(looper) make a handler on the looper
 * given, as new Handler(looper) does: posts to one on the main looper run on the main thread
 * (mShown, mCompatShown, mLocalShown race with a worker-thread reader, not with onResume), posts to one on a HandlerThread's
 * looper one at a time on that thread (mSaved races with onResume's read, not with itself).
 */
public class AsyncHandlerActivity extends Activity {
    private final Handler mMain = Handler.createAsync(Looper.getMainLooper());
    private final Handler mCompatMain = HandlerCompat.createAsync(Looper.getMainLooper());
    private Handler mWorker;
    private int mShown;
    private int mCompatShown;
    private int mLocalShown;
    private int mSaved;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread worker = new HandlerThread("worker");
        worker.start();
        mWorker = HandlerCompat.createAsync(worker.getLooper());
    }

    void show() {
        mMain.post(() -> mShown++);
        mCompatMain.post(() -> mCompatShown++);
        Handler.createAsync(Looper.getMainLooper()).post(() -> mLocalShown++);
    }

    void save() {
        mWorker.post(() -> mSaved++);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mCompatShown + " " + mLocalShown;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mCompatShown + " " + mLocalShown + " " + mSaved);
    }
}
