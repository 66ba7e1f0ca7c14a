package fixtures.android.reactive;

import android.app.Activity;
import androidx.annotation.WorkerThread;
import io.reactivex.rxjava3.android.schedulers.AndroidSchedulers;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.concurrent.Callable;

/**
 * A helper that subscribes the code it is given on the io scheduler hands its caller's lambda
 * to a background thread (its summary says so); Flowable and Maybe follow the same rules.
 */
public class HelperActivity extends Activity {
    private int mFetched;
    private int mDrawn;
    private int mChecked;

    static void inBackground(Callable<Integer> work) {
        Single.fromCallable(work).subscribeOn(Schedulers.io()).subscribe();
    }

    void fetch() {
        inBackground(() -> mFetched++); // expect: HelperActivity fetch this.mFetched
    }

    void draw() {
        Flowable.just(1).observeOn(AndroidSchedulers.mainThread()).subscribe(i -> mDrawn = i);
    }

    void check() {
        Maybe.fromCallable(() -> mChecked++).subscribeOn(Schedulers.newThread()).subscribe(); // expect: HelperActivity check this.mChecked
    }

    /** Runs on a background thread: it races with what main-thread functions write. */
    @WorkerThread
    int upload() {
        return mDrawn; // expect: HelperActivity upload this.mDrawn
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("" + mFetched + mDrawn + mChecked); // expect: HelperActivity onResume this.mFetched this.mChecked
    }
}
