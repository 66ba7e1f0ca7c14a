package fixtures.android.handoffs;

import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;

/**
 * A dispatcher that does its work on its own handler thread, through a static handler class
 * keeping the dispatcher (the form lint asks for instead of an inner class). The handler's
 * field leads back to the dispatcher, so its messages write the dispatcher's own fields.
 */
public class DispatcherThread {
    private static final int LOAD = 1;
    private static final int CLEAR = 2;
    private static final int RESET = 3;

    private final HandlerThread thread = new HandlerThread("dispatcher");
    private final DispatchHandler handler;
    int loaded;
    int pending;

    public DispatcherThread() {
        thread.start();
        handler = new DispatchHandler(thread.getLooper(), this);
    }

    public void dispatchLoad() {
        handler.sendEmptyMessage(LOAD); // expect (default mode): DispatcherThread dispatchLoad this.pending
    }

    public void dispatchClear() {
        handler.sendEmptyMessage(CLEAR);
    }

    /** Safe: only the handler's messages call it, one at a time on the dispatcher's thread. */
    void performLoad() {
        loaded++;
    }

    /** Safe: the same. */
    void performClear() {
        loaded = 0;
    }

    /** Racy: read on the caller's thread, written on the dispatcher's. */
    public int loaded() {
        return loaded; // expect (default mode): DispatcherThread loaded this.loaded
    }

    /** Racy: called by a message and by a public method, so on any thread too. */
    void performReset() {
        pending = 0; // expect (default mode): DispatcherThread performReset this.pending
    }

    public void reset() {
        performReset(); // expect (default mode): DispatcherThread reset this.pending
    }

    private static class DispatchHandler extends Handler {
        private final DispatcherThread dispatcher;

        DispatchHandler(Looper looper, DispatcherThread dispatcher) {
            super(looper);
            this.dispatcher = dispatcher;
        }

        @Override
        public void handleMessage(Message msg) {
            switch (msg.what) {
                case LOAD:
                    dispatcher.performLoad();
                    break;
                case CLEAR:
                    dispatcher.performClear();
                    break;
                default:
                    dispatcher.performReset();
                    break;
            }
        }
    }
}
