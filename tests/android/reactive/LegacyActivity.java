package fixtures.android.reactive;

import android.app.Activity;
import io.reactivex.Completable;
import io.reactivex.Observable;
import io.reactivex.schedulers.Schedulers;

/** RxJava 2 (package io.reactivex): the same rules. */
public class LegacyActivity extends Activity {
    private int mSaved;
    private int mSynced;
    private int mShown;

    void save() {
        Completable.fromAction(() -> mSaved++) // expect: LegacyActivity save this.mSaved
                .subscribeOn(Schedulers.io())
                .subscribe();
    }

    void sync() {
        Observable.range(0, 3)
                .subscribeOn(Schedulers.single())
                .doOnNext(i -> mSynced = i)
                .subscribe();
    }

    void show() {
        Observable.range(0, 3).doOnNext(i -> mShown = i).subscribe();
        Completable.fromAction(() -> mSaved--).subscribeOn(Schedulers.io()).subscribe(); // expect: LegacyActivity show this.mSaved
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("" + mSaved + mSynced + mShown); // expect: LegacyActivity onResume this.mSaved this.mSynced
    }
}
