package androidx.lifecycle;

/** Stand-in for androidx.lifecycle.LifecycleOwner. */
public interface LifecycleOwner {}
