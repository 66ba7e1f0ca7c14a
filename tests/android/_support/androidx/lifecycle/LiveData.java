package androidx.lifecycle;

/** Stand-in for androidx.lifecycle.LiveData (Google's Maven repository, not Maven Central). */
public abstract class LiveData<T> {
    public void observe(LifecycleOwner owner, Observer<? super T> observer) {}

    public void observeForever(Observer<? super T> observer) {}

    public void removeObserver(Observer<? super T> observer) {}

    public T getValue() {
        return null;
    }

    protected void postValue(T value) {}

    protected void setValue(T value) {}
}
