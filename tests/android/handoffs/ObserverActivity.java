package fixtures.android.handoffs;

import android.app.Activity;
import android.database.ContentObserver;
import android.net.Uri;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import androidx.annotation.WorkerThread;

/**
 * A ContentObserver runs onChange on the looper of the handler it is made with, or, made with
 * none, on the binder thread that delivers the change. An anonymous observer made with null
 * (mChanges) and a named one whose constructor gives super(null) (mDirty) write on binder
 * threads; one made with a handler on a HandlerThread's looper writes there (mLastUri): each write
 * is reported where it is made. Binder threads run several changes at once (SettingsObserver's
 * mCount races with itself); a looper runs them one at a time (the worker observer's does not).
 * The handler can also be read from a field every store gives one kind: mWorkerHandler's
 * observer writes mSynced on the worker's thread. The observers made with the main looper's
 * handler, made there or kept in mMainHandler, run on the main thread where they are
 * registered: mShown and mNoted race with the worker-thread reader describe() only. Safe: the
 * observer made with a handler of unknown looper is not followed at its registration (mSeen is
 * not reported).
 */
public class ObserverActivity extends Activity {
    private final HandlerThread mThread = new HandlerThread("observers");
    private final SettingsObserver mSettings = new SettingsObserver();
    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private Handler mWorkerHandler;
    private int mChanges;
    private Uri mLastUri;
    private int mShown;
    private int mSeen;
    private boolean mDirty;
    private int mNoted;
    private boolean mSynced;

    private final class SettingsObserver extends ContentObserver {
        private int mCount;

        SettingsObserver() {
            super(null);
        }

        void observe() {
            getContentResolver().registerContentObserver(Uri.EMPTY, false, this);
        }

        @Override
        public void onChange(boolean selfChange) {
            mDirty = true;
            mCount++;
        }
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mThread.start();
        getContentResolver().registerContentObserver(Uri.EMPTY, true, new ContentObserver(null) {
            @Override
            public void onChange(boolean selfChange) {
                mChanges++;
            }
        });
        getContentResolver().registerContentObserver(Uri.EMPTY, true, new ContentObserver(new Handler(mThread.getLooper())) {
            private int mCount;

            @Override
            public void onChange(boolean selfChange, Uri uri) {
                mLastUri = uri;
                mCount++;
            }
        });
        getContentResolver().registerContentObserver(Uri.EMPTY, true, new ContentObserver(new Handler(Looper.getMainLooper())) {
            @Override
            public void onChange(boolean selfChange) {
                mShown++;
            }
        });
        mSettings.observe();
        mWorkerHandler = new Handler(mThread.getLooper());
        getContentResolver().registerContentObserver(Uri.EMPTY, true, new ContentObserver(mMainHandler) {
            @Override
            public void onChange(boolean selfChange) {
                mNoted++;
            }
        });
        getContentResolver().registerContentObserver(Uri.EMPTY, true, new ContentObserver(mWorkerHandler) {
            @Override
            public void onChange(boolean selfChange) {
                mSynced = true;
            }
        });
    }

    void observe(Handler handler) {
        getContentResolver().registerContentObserver(Uri.EMPTY, true, new ContentObserver(handler) {
            @Override
            public void onChange(boolean selfChange) {
                mSeen++;
            }
        });
    }

    @WorkerThread
    String describe() {
        return mShown + " " + mSeen + " " + mNoted;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mChanges + " " + mLastUri + " " + mShown + " " + mSeen + " " + mDirty);
    }
}
