package fixtures.android.handoffs;

import android.os.Handler;
import android.os.Looper;

/**
 * A poller of a library module: its handler is on the process thread, unless a caller gives it
 * another looper. Only the calls of its package say which looper it is given (here, its own
 * constructor's), so that a module using it sees what the whole build sees.
 */
public class SharedPoller {
    private final Handler mHandler;

    public SharedPoller() {
        this(ProcessThread.getHandler().getLooper());
    }

    public SharedPoller(Looper looper) {
        mHandler = new Handler(looper);
    }

    public void post(Runnable poll) {
        mHandler.post(poll);
    }
}
