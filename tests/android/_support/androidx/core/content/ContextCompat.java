package androidx.core.content;

import android.content.Context;
import java.util.concurrent.Executor;

/** Stand-in for androidx's class: the main-thread executor of a context. */
public final class ContextCompat {
    private ContextCompat() {}

    public static Executor getMainExecutor(Context context) {
        return context.getMainExecutor();
    }
}
