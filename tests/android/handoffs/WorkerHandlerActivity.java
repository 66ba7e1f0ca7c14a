package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.HandlerThread;
import android.os.Looper;

/**
 * A Handler subclass is on the looper its constructor gives super(...): what is posted to a
 * WorkerHandler made on a HandlerThread's looper (kept in a field) runs on that thread, racing
 * with onResume (mSaved); to one made on the main looper (in the method), on the main thread,
 * racing with nothing (mShown). WorkerHandler may be in an upstream module.
 */
public class WorkerHandlerActivity extends Activity {
    private final HandlerThread mThread = new HandlerThread("work");
    private WorkerHandler mWorker;
    private Object mSaved;
    private int mShown;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mWorker = new WorkerHandler(mThread.getLooper());
    }

    @Override
    protected void onStart() {
        super.onStart();
        mWorker.post(() -> mSaved = "state");
        new WorkerHandler(Looper.getMainLooper()).post(() -> mShown++);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mSaved + " " + mShown);
    }
}
