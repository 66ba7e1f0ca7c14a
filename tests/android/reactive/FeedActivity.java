package fixtures.android.reactive;

import android.app.Activity;
import android.os.Bundle;
import io.reactivex.rxjava3.android.schedulers.AndroidSchedulers;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

/**
 * RxJava 3: a function given to an operator runs where the nearest observeOn upstream of it
 * moves the items, else on the scheduler of the chain's first subscribeOn, wherever that call
 * stands in the chain. Background functions race with the lifecycle callbacks; functions moved
 * to the main thread do not.
 */
public class FeedActivity extends Activity {
    private String mCache;
    private String mShown;
    private int mParsed;
    private int mLoaded;
    private String mLabel;
    private int mCounted;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        Single.fromCallable(() -> {
                    mCache = "feed"; // expect: FeedActivity onCreate this.mCache
                    return mCache; // expect: FeedActivity onCreate this.mCache
                })
                .subscribeOn(Schedulers.io())
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(feed -> mShown = feed);
    }

    /** Upstream of the first observeOn: the io thread; downstream: the main thread. */
    void refresh() {
        Observable.just("a", "b")
                .subscribeOn(Schedulers.io())
                .map(item -> {
                    mParsed++; // expect: FeedActivity refresh this.mParsed
                    return item;
                })
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(item -> mShown = item);
    }

    /** subscribeOn after observeOn still moves the source: only the callback is on main. */
    void reload() {
        Single.fromCallable(() -> mLoaded++) // expect: FeedActivity reload this.mLoaded
                .observeOn(AndroidSchedulers.mainThread())
                .subscribeOn(Schedulers.io())
                .subscribe(count -> mLabel = "loaded " + count);
    }

    /** observeOn a background scheduler moves what follows it there. */
    void count() {
        Observable.just(1, 2, 3)
                .observeOn(Schedulers.computation())
                .subscribe(n -> mCounted += n); // expect: FeedActivity count this.mCounted
    }

    /** No scheduler: the chain runs where it is subscribed, on the main thread. */
    void label() {
        Observable.fromCallable(() -> mLabel = "ready").subscribe();
    }

    /** The trampoline scheduler runs on the subscribing thread. */
    void relabel() {
        Single.fromCallable(() -> mLabel = "again")
                .subscribeOn(Schedulers.trampoline())
                .subscribe();
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mCache + mShown + mParsed + mLoaded + mLabel + mCounted); // expect: FeedActivity onResume this.mCache this.mParsed this.mLoaded this.mCounted
    }
}
