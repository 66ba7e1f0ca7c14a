package fixtures.android.handoffs.app;

import android.app.Activity;
import android.os.Looper;
import fixtures.android.handoffs.SharedPoller;

/**
 * An app module using the library's poller: its own call giving the poller the main looper does
 * not change the thread the library's calls give it, so a post through the poller made with the
 * process thread's looper races with onResume (mPolled), in the whole build as in this module
 * analysed alone with the library's summary file.
 */
public class PollerClientActivity extends Activity {
    private final SharedPoller mPoller = new SharedPoller();
    private final SharedPoller mMainPoller = new SharedPoller(Looper.getMainLooper());
    private int mPolled;

    void poll() {
        mPoller.post(() -> mPolled++);
    }

    SharedPoller mainPoller() {
        return mMainPoller;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("polled " + mPolled); // expect: PollerClientActivity onResume this.mPolled
    }
}
