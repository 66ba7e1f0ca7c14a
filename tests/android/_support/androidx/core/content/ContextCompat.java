package androidx.core.content;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Handler;
import java.util.concurrent.Executor;

/** Stand-in for androidx's class: the main-thread executor of a context, receivers' registration. */
public final class ContextCompat {
    private ContextCompat() {}

    public static Executor getMainExecutor(Context context) {
        return context.getMainExecutor();
    }

    public static Intent registerReceiver(Context context, BroadcastReceiver receiver, IntentFilter filter, int flags) {
        return context.registerReceiver(receiver, filter, flags);
    }

    public static Intent registerReceiver(
            Context context, BroadcastReceiver receiver, IntentFilter filter, String permission, Handler scheduler, int flags) {
        return context.registerReceiver(receiver, filter, permission, scheduler, flags);
    }
}
