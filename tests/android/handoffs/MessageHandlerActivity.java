package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * A message sent to a Handler subclass runs its handleMessage on the handler's looper, one
 * message at a time: the looper its constructor gives super(...), as an anonymous class in a
 * field initializer, an inner class given the looper, or one that names the main looper itself;
 * a post to a subclass made in the method runs where its constructor puts it too.
 * On the main looper its writes race with worker-thread readers, not with onResume; on a
 * HandlerThread's looper they race with onResume. A handler of unknown looper is not followed.
 */
public class MessageHandlerActivity extends Activity {
    private static final int LOAD = 1;
    private static final int SAVE = 2;

    private final HandlerThread mThread = new HandlerThread("messages");
    private final Handler mUiHandler = new Handler(Looper.getMainLooper()) {
        @Override
        public void handleMessage(Message msg) {
            mShown = msg.arg1;
        }
    };
    private final TickHandler mTicker = new TickHandler();
    private LoadHandler mLoader;
    private Handler mSaver;
    private GivenHandler mGiven;
    private int mShown;
    private int mTicks;
    private Object mLoaded;
    private Object mSaved;
    private int mPolled;
    private int mCounted;

    final class TickHandler extends Handler {
        TickHandler() {
            super(Looper.getMainLooper());
        }

        @Override
        public void handleMessage(Message msg) {
            mTicks++;
        }
    }

    final class LoadHandler extends Handler {
        LoadHandler(Looper looper) {
            super(looper);
        }

        @Override
        public void handleMessage(Message msg) {
            mLoaded = msg.obj;
        }
    }

    static final class CountHandler extends Handler {
        CountHandler(Looper looper) {
            super(looper);
        }
    }

    final class GivenHandler extends Handler {
        GivenHandler(Looper looper) {
            super(looper);
        }

        @Override
        public void handleMessage(Message msg) {
            mPolled++;
        }
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mLoader = new LoadHandler(mThread.getLooper());
        mSaver = new Handler(mThread.getLooper()) {
            @Override
            public void handleMessage(Message msg) {
                mSaved = msg.obj;
            }
        };
    }

    void attach(Looper looper) {
        mGiven = new GivenHandler(looper);
    }

    @WorkerThread
    void onProgress(int percent) {
        mUiHandler.sendMessage(mUiHandler.obtainMessage(0, percent, 0));
        mTicker.sendEmptyMessageDelayed(0, 100);
    }

    @Override
    protected void onStart() {
        super.onStart();
        mLoader.sendEmptyMessage(LOAD);
        mSaver.obtainMessage(SAVE, "state").sendToTarget();
        mGiven.sendEmptyMessage(0);
        new CountHandler(mThread.getLooper()).post(() -> mCounted++);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mTicks;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mTicks + " " + mLoaded + " " + mSaved + " " + mPolled + " " + mCounted);
    }
}
