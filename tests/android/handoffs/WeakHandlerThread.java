package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.Message;
import java.lang.ref.WeakReference;

/**
 * Static handler classes keeping their owner in a weak reference, the form lint asks for so that
 * a pending message does not keep the owner alive. The reference stands for the owner, so the
 * messages reach its fields as a handler keeping it strongly does.
 */
public class WeakHandlerThread {
    private final HandlerThread thread = new HandlerThread("loader");
    private final LoadHandler handler;
    int loaded;

    public WeakHandlerThread() {
        thread.start();
        handler = new LoadHandler(thread.getLooper(), this);
    }

    public void load() {
        handler.sendEmptyMessage(1);
    }

    /** Racy: read on the caller's thread, written by the messages on the loader's thread. */
    public int loaded() {
        return loaded; // expect (default mode): WeakHandlerThread loaded this.loaded
    }

    private static class LoadHandler extends Handler {
        private final WeakReference<WeakHandlerThread> owner;

        LoadHandler(Looper looper, WeakHandlerThread owner) {
            super(looper);
            this.owner = new WeakReference<>(owner);
        }

        @Override
        public void handleMessage(Message msg) {
            WeakHandlerThread o = owner.get();
            if (o != null) {
                o.loaded++;
            }
        }
    }

    /** Safe: the handler runs on the main looper, where the activity's callbacks run too. */
    public static class MainLoopActivity extends Activity {
        private final TickHandler ticks = new TickHandler(Looper.getMainLooper(), this);
        int ticked;

        @Override
        protected void onResume() {
            ticks.sendEmptyMessage(1);
            ticked = 0;
        }

        private static class TickHandler extends Handler {
            private final WeakReference<MainLoopActivity> activity;

            TickHandler(Looper looper, MainLoopActivity activity) {
                super(looper);
                this.activity = new WeakReference<>(activity);
            }

            @Override
            public void handleMessage(Message msg) {
                MainLoopActivity a = activity.get();
                if (a != null) {
                    a.ticked++;
                }
            }
        }
    }

    /** Racy: the handler runs on a background looper, while the activity's callbacks run on the
     * main thread. */
    public static class LoaderActivity extends Activity {
        private final HandlerThread thread = new HandlerThread("loader");
        private LoaderHandler loader;
        int pages;

        @Override
        protected void onCreate(android.os.Bundle state) {
            thread.start();
            loader = new LoaderHandler(thread.getLooper(), this);
        }

        @Override
        protected void onResume() {
            loader.sendEmptyMessage(1);
            pages = 0; // expect (default mode): LoaderActivity onResume this.pages
        }

        private static class LoaderHandler extends Handler {
            private final WeakReference<LoaderActivity> activity;

            LoaderHandler(Looper looper, LoaderActivity activity) {
                super(looper);
                this.activity = new WeakReference<>(activity);
            }

            @Override
            public void handleMessage(Message msg) {
                LoaderActivity a = activity.get();
                if (a != null) {
                    a.pages++;
                }
            }
        }
    }
}
