package androidx.core.os;

import android.os.Handler;
import java.util.concurrent.Executor;

/** Stand-in for androidx's class: an executor that posts its tasks to a handler. */
public final class ExecutorCompat {
    private ExecutorCompat() {}

    public static Executor create(Handler handler) {
        return handler::post;
    }
}
