package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import androidx.annotation.WorkerThread;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Code handed to background threads (an executor, a HandlerThread's handler) races with the
 * main-thread callbacks; code handed to the main thread races only with background code.
 */
public class TaskActivity extends Activity {
    private final ExecutorService mExecutor = Executors.newSingleThreadExecutor();
    private final HandlerThread mThread = new HandlerThread("worker");
    private Handler mWorker;
    private String mResult;
    private int mTicks;
    private String mStatus;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mWorker = new Handler(mThread.getLooper());
        mExecutor.execute(() -> mResult = String.valueOf(System.nanoTime())); // one task at a time: no self race
        mWorker.post(() -> mTicks++); // one looper thread: no self race
    }

    @Override
    protected void onResume() {
        super.onResume();
        String result = mResult; // expect: TaskActivity onResume this.mResult
        setTitle(result + mTicks); // expect: TaskActivity onResume this.mTicks
    }

    @WorkerThread
    void refresh() {
        runOnUiThread(() -> mStatus = "done");
    }

    @WorkerThread
    void log() {
        System.out.println(mStatus); // expect: TaskActivity log this.mStatus
    }
}
