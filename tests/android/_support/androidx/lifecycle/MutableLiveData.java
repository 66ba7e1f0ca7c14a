package androidx.lifecycle;

/** Stand-in for androidx.lifecycle.MutableLiveData. */
public class MutableLiveData<T> extends LiveData<T> {
    @Override
    public void postValue(T value) {
        super.postValue(value);
    }

    @Override
    public void setValue(T value) {
        super.setValue(value);
    }
}
