package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.os.HandlerThread;

/**
 * Code given to a helper that posts it to a HandlerThread's handler runs on that looper's one
 * thread: it races with the main-thread callbacks, not with itself.
 */
public class WorkerHelperActivity extends Activity {
    private final Handler mWorker;
    private int mLoads;

    public WorkerHelperActivity() {
        HandlerThread thread = new HandlerThread("loader");
        thread.start();
        mWorker = new Handler(thread.getLooper());
    }

    private void onWorker(Runnable task) {
        mWorker.post(task);
    }

    void load() {
        onWorker(() -> mLoads++); // one looper thread: no self race
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("loads: " + mLoads); // expect: WorkerHelperActivity onResume this.mLoads
    }
}
