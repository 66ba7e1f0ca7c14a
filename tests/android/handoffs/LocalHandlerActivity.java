package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * A message sent to a Handler subclass's handler made in the method, kept in a local or not,
 * runs its handleMessage on the looper its constructor gives super(...), with the outer instance
 * it was given: on a HandlerThread's looper its write races with onResume; on the main looper
 * with the worker-thread reader describe() only. A handler made on a looper of unknown thread is
 * not followed.
 */
public class LocalHandlerActivity extends Activity {
    private final HandlerThread mThread = new HandlerThread("local");
    private Object mLoaded;
    private int mShown;
    private int mPolled;

    final class FetchHandler extends Handler {
        FetchHandler(Looper looper) {
            super(looper);
        }

        @Override
        public void handleMessage(Message msg) {
            mLoaded = String.valueOf(msg.obj);
        }
    }

    final class ShowHandler extends Handler {
        ShowHandler() {
            super(Looper.getMainLooper());
        }

        @Override
        public void handleMessage(Message msg) {
            mShown = msg.arg1;
        }
    }

    final class PollHandler extends Handler {
        PollHandler(Looper looper) {
            super(looper);
        }

        @Override
        public void handleMessage(Message msg) {
            mPolled += msg.what;
        }
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
    }

    @Override
    protected void onStart() {
        super.onStart();
        Handler loader = new FetchHandler(mThread.getLooper());
        loader.obtainMessage(0, "state").sendToTarget();
        new ShowHandler().sendEmptyMessage(1);
    }

    void poll(Looper looper) {
        new PollHandler(looper).sendEmptyMessage(2);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mPolled;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mLoaded + " " + mShown + " " + mPolled);
    }
}
