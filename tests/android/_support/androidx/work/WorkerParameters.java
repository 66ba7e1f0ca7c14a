package androidx.work;

/** A stand-in for the parameters WorkManager gives a worker. */
public final class WorkerParameters {}
