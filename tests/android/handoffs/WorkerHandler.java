package fixtures.android.handoffs;

import android.os.Handler;
import android.os.Looper;

/** A handler class of the app's own, on the looper it is given (see WorkerHandlerActivity). */
public class WorkerHandler extends Handler {
    public WorkerHandler(Looper looper) {
        super(looper);
    }
}
