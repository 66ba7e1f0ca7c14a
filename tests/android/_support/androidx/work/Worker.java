package androidx.work;

import android.content.Context;

/** A stand-in for WorkManager's worker: `doWork()` is called on a background thread. */
public abstract class Worker extends ListenableWorker {
    public Worker(Context context, WorkerParameters params) {
        super(context, params);
    }

    public abstract Result doWork();
}
