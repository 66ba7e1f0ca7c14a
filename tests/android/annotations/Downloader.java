package fixtures.android.annotations;

import androidx.annotation.MainThread;
import androidx.annotation.UiThread;
import androidx.annotation.WorkerThread;

/** androidx.annotation: @WorkerThread code runs in the background, @MainThread/@UiThread on main. */
public class Downloader {
    private byte[] mData;
    private int mProgress;
    private String mStatus;

    @WorkerThread
    void download() {
        mData = new byte[16]; // expect: Downloader download this.mData
    }

    @WorkerThread
    void finish() {
        synchronized (this) {
            mProgress = 100;
        }
    }

    @MainThread
    int size() {
        return mData.length; // expect: Downloader size this.mData
    }

    @UiThread
    void showProgress() {
        synchronized (this) {
            mStatus = "at " + mProgress;
        }
    }

    @UiThread
    void clearStatus() {
        mStatus = null;
    }
}
