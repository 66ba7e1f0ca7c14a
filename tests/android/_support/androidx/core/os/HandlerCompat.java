package androidx.core.os;

import android.os.Handler;
import android.os.Looper;

/** Stand-in for androidx's class: a handler on the looper given whose messages are asynchronous. */
public final class HandlerCompat {
    private HandlerCompat() {}

    public static Handler createAsync(Looper looper) {
        return Handler.createAsync(looper);
    }

    public static Handler createAsync(Looper looper, Handler.Callback callback) {
        return Handler.createAsync(looper, callback);
    }
}
