package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.os.Looper;
import android.view.View;
import androidx.annotation.WorkerThread;

/**
 * Background code hands its results to the main thread with runOnUiThread, View.post and a
 * Handler on the main looper; writing them directly from the background races with onResume.
 */
public class GalleryActivity extends Activity {
    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private View mView;
    private String mCaption;
    private String mTitle;
    private int mCount;
    private String mDirect;

    @WorkerThread
    void loadDirect() {
        mDirect = fetch(); // expect: GalleryActivity loadDirect this.mDirect
    }

    @WorkerThread
    void loadCaption() {
        final String caption = fetch();
        runOnUiThread(() -> mCaption = caption);
    }

    @WorkerThread
    void loadTitle() {
        final String title = fetch();
        mView.post(new Runnable() {
            @Override
            public void run() {
                mTitle = title;
            }
        });
    }

    @WorkerThread
    void count() {
        mMainHandler.post(() -> mCount++);
        mView.postDelayed(() -> mCount++, 100);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mDirect + mCaption + mTitle + mCount); // expect: GalleryActivity onResume this.mDirect
    }

    private static String fetch() {
        return String.valueOf(System.nanoTime());
    }
}
