package fixtures.android.handoffs;

import android.content.Context;
import android.graphics.Canvas;
import android.os.Handler;
import android.view.View;
import androidx.annotation.WorkerThread;

/**
 * A view makes its handler without a looper in a field initializer: views are made on a looper
 * thread, the main one (one inflated on another thread may not make a handler, AsyncLayoutInflater
 * reference), so what the handler is posted runs on the main thread: mBlinks races with the
 * worker-thread reader, and mVisible not with onDraw.
 */
public class BlinkingView extends View {
    private final Handler mHandler = new Handler();
    private boolean mVisible;
    private int mBlinks;

    public BlinkingView(Context context) {
        super(context);
    }

    @WorkerThread
    void onSignal() {
        mHandler.post(() -> {
            mVisible = !mVisible;
            mBlinks++;
            invalidate();
        });
    }

    @WorkerThread
    int blinksForLog() {
        return mBlinks;
    }

    @Override
    protected void onDraw(Canvas canvas) {
        if (mVisible) {
            canvas.drawColor(0);
        }
    }
}
