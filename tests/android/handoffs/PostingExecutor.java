package fixtures.android.handoffs;

import android.os.Handler;
import android.os.Looper;
import java.util.concurrent.Executor;

/**
 * An executor of the app's own (see OwnExecutorActivity): posts its tasks to the handler it is
 * made with (or makes on the looper it is given), and runs one at once when already on that
 * handler's looper.
 */
final class PostingExecutor implements Executor {
    private final Handler mHandler;

    PostingExecutor(Handler handler) {
        mHandler = handler;
    }

    PostingExecutor(Looper looper) {
        this(new Handler(looper));
    }

    @Override
    public void execute(Runnable task) {
        if (Looper.myLooper() == mHandler.getLooper()) {
            task.run();
        } else {
            mHandler.post(task);
        }
    }
}
