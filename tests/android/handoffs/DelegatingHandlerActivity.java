package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * Handler subclasses whose constructors call this(...): the looper is the one the constructor
 * at the end of the chain gives super(...). A chain ending in the main looper runs
 * handleMessage on the main thread (its write races with the worker-thread reader describe(),
 * not with onResume); a chain that passes a HandlerThread's looper down to super(looper) runs it
 * on that thread (its write races with onResume). A chain that picks its looper with a
 * conditional is not followed.
 */
public class DelegatingHandlerActivity extends Activity {
    private final HandlerThread mThread = new HandlerThread("delegating");
    private ShowHandler mShower;
    private LoadHandler mLoader;
    private PickHandler mPicker;
    private int mShown;
    private Object mLoaded;
    private int mPicked;

    final class ShowHandler extends Handler {
        ShowHandler() {
            this(Looper.getMainLooper());
        }

        ShowHandler(Looper looper) {
            super(looper);
        }

        @Override
        public void handleMessage(Message msg) {
            mShown = msg.arg1;
        }
    }

    final class LoadHandler extends Handler {
        private final int mKind;

        LoadHandler(Looper looper) {
            this(looper, 1);
        }

        LoadHandler(Looper looper, int kind) {
            super(looper, null);
            mKind = kind;
        }

        @Override
        public void handleMessage(Message msg) {
            mLoaded = mKind + ":" + msg.obj;
        }
    }

    final class PickHandler extends Handler {
        PickHandler(boolean main) {
            this(main ? Looper.getMainLooper() : Looper.myLooper());
        }

        PickHandler(Looper looper) {
            super(looper);
        }

        @Override
        public void handleMessage(Message msg) {
            mPicked++;
        }
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        mShower = new ShowHandler();
        mLoader = new LoadHandler(mThread.getLooper());
        mPicker = new PickHandler(true);
    }

    @Override
    protected void onStart() {
        super.onStart();
        mShower.sendEmptyMessage(0);
        mLoader.obtainMessage(1, "state").sendToTarget();
        mPicker.sendEmptyMessage(2);
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mPicked;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mLoaded + " " + mPicked);
    }
}
