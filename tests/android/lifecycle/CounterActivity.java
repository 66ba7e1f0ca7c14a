package fixtures.android.lifecycle;

import android.app.Activity;
import android.os.Bundle;

/** Activity callbacks run on the main thread: their unlocked writes race with a locked read. */
public class CounterActivity extends Activity {
    private int mCount;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mCount = 0;
    }

    @Override
    protected void onResume() {
        super.onResume();
        mCount++;
    }

    public synchronized int snapshot() {
        return mCount; // expect: CounterActivity snapshot this.mCount
    }
}
