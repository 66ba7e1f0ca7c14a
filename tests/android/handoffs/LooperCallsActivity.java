package fixtures.android.handoffs;

import android.app.Activity;
import android.content.Context;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import androidx.annotation.WorkerThread;

/**
 * Loopers got through calls: the activity's own getMainLooper(), another context's, a
 * HandlerThread subclass's getLooper() and a handler's getLooper(). A handler made on each,
 * kept in a field or not, runs its posts on that looper, and so does a Handler subclass whose
 * constructor gives super(...) a context's main looper: the main-thread writes race with the
 * worker-thread reader describe(), not with onResume; the loader thread's write races with
 * onResume. A looper returned by a method of the class's own is not followed.
 */
public class LooperCallsActivity extends Activity {
    static final class LoaderThread extends HandlerThread {
        LoaderThread() {
            super("loader");
        }
    }

    final class UiHandler extends Handler {
        UiHandler(Context context) {
            super(context.getMainLooper());
        }

        @Override
        public void handleMessage(Message msg) {
            mPainted = msg.arg1;
        }
    }

    private final LoaderThread mLoader = new LoaderThread();
    private Handler mMain;
    private Handler mBackground;
    private Looper mGiven;
    private int mShown;
    private int mLoaded;
    private int mRelayed;
    private int mApplied;
    private int mUnknown;
    private int mPainted;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mLoader.start();
        mMain = new Handler(getMainLooper());
        mBackground = new Handler(mLoader.getLooper());
    }

    @Override
    protected void onStart() {
        super.onStart();
        mMain.post(() -> mShown++);
        mBackground.post(() -> mLoaded++);
        new Handler(mMain.getLooper()).post(() -> mRelayed++);
        Context application = getApplicationContext();
        new Handler(application.getMainLooper()).post(() -> mApplied++);
        new Handler(givenLooper()).post(() -> mUnknown++);
        new UiHandler(this).sendEmptyMessage(1);
    }

    void setLooper(Looper looper) {
        mGiven = looper;
    }

    Looper givenLooper() {
        return mGiven;
    }

    @WorkerThread
    String describe() {
        String shown = "shown " + mShown;
        String relayed = "relayed " + mRelayed;
        String applied = "applied " + mApplied;
        String painted = "painted " + mPainted;
        return shown + relayed + applied + painted + mUnknown;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mLoaded + " " + mShown + " " + mRelayed + " " + mApplied + " " + mUnknown + " " + mPainted);
    }
}
