package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;

/** A process-wide worker thread, reached through its lazily made singleton. */
class SharedWorker {
    private static SharedWorker sInstance;
    private final Handler mHandler;
    private final Handler mMain = new Handler(Looper.getMainLooper());

    private SharedWorker() {
        HandlerThread thread = new HandlerThread("shared-worker");
        thread.start();
        mHandler = new Handler(thread.getLooper());
    }

    static synchronized SharedWorker get() {
        if (sInstance == null) {
            sInstance = new SharedWorker();
        }
        return sInstance;
    }

    Handler handler() {
        return mHandler;
    }

    Handler mainHandler() {
        return mMain;
    }
}

/**
 * Code posted to the singleton's worker handler runs on its one background thread, where the
 * singleton's getter leads (the getter gives the static's object, whose field holds the
 * handler): its write races with onResume's read. Code posted to its main-looper handler does
 * not.
 */
public class SingletonWorkerActivity extends Activity {
    private int mSaved;
    private int mShown;

    void save() {
        SharedWorker.get().handler().post(() -> mSaved++);
    }

    void show() {
        SharedWorker.get().mainHandler().post(() -> mShown++);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("saved " + mSaved); // expect: SingletonWorkerActivity onResume this.mSaved
        setTitle("shown " + mShown);
    }
}
