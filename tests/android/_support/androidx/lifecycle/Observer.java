package androidx.lifecycle;

/** Stand-in for androidx.lifecycle.Observer. */
public interface Observer<T> {
    void onChanged(T value);
}
