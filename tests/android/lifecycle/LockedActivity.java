package fixtures.android.lifecycle;

import android.app.Activity;
import android.os.Bundle;

/** Safe: the callbacks write under the same lock as the background read. */
public class LockedActivity extends Activity {
    private int mCount;
    private String mTitle;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        synchronized (this) {
            mCount = 0;
        }
        mTitle = "main";
    }

    @Override
    protected void onPause() {
        super.onPause();
        mTitle = null;
    }

    public synchronized int snapshot() {
        return mCount;
    }
}
