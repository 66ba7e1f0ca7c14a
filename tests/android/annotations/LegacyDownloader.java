package fixtures.android.annotations;

import android.support.annotation.AnyThread;
import android.support.annotation.MainThread;
import android.support.annotation.UiThread;
import android.support.annotation.WorkerThread;

/** The same annotations from android.support.annotation: only the simple name matters. */
public class LegacyDownloader {
    private int mAttempts;
    private int mRetries;
    private String mLabel;

    @AnyThread
    void retry() {
        mAttempts++; // expect: LegacyDownloader retry this.mAttempts
    }

    @WorkerThread
    void backoff() {
        synchronized (this) {
            mRetries++;
        }
    }

    @MainThread
    int retries() {
        synchronized (this) {
            return mRetries;
        }
    }

    @UiThread
    void relabel() {
        mLabel = "retry";
    }

    @MainThread
    String label() {
        return mLabel;
    }
}
