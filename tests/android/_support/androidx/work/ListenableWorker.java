package androidx.work;

import android.content.Context;

/**
 * A stand-in for WorkManager's base worker (androidx.work is not on Maven Central): the real
 * binary name and the callbacks racer models. Never run.
 */
public abstract class ListenableWorker {
    public ListenableWorker(Context context, WorkerParameters params) {}

    /** Called when the work is stopped (cancelled or preempted), while it may still run. */
    public void onStopped() {}

    public final boolean isStopped() {
        return false;
    }

    /** The outcome of a piece of work. */
    public abstract static class Result {
        public static Result success() {
            return null;
        }

        public static Result retry() {
            return null;
        }
    }
}
