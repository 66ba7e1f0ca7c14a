package fixtures.android.handoffs;

import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;

/**
 * A process-wide background thread, as the platform's own are written: made lazily under the
 * class's lock, its handler handed out by a static getter that returns it from inside the
 * `synchronized` block.
 */
final class ProcessThread extends HandlerThread {
    private static ProcessThread sInstance;
    private static Handler sHandler;

    private ProcessThread() {
        super("process-thread");
    }

    private static void ensureThreadLocked() {
        if (sInstance == null) {
            sInstance = new ProcessThread();
            sInstance.start();
            sHandler = new Handler(sInstance.getLooper());
        }
    }

    static Handler getHandler() {
        synchronized (ProcessThread.class) {
            ensureThreadLocked();
            return sHandler;
        }
    }
}

/** The main thread's handler, kept once and handed out the same way. */
final class MainThreadHandler {
    private static Handler sMain;

    static synchronized Handler get() {
        if (sMain == null) {
            sMain = new Handler(Looper.getMainLooper());
        }
        return sMain;
    }
}
