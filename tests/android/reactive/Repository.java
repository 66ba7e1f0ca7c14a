package fixtures.android.reactive;

import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.HashMap;
import java.util.Map;

/**
 * No lifecycle, no lock: a chain subscribed on the io scheduler is the only sign that the class
 * runs code on another thread, and its function's write races with the getter.
 */
public class Repository {
    private final Map<String, String> mEntries = new HashMap<>();

    void refresh(String key) {
        Single.fromCallable(() -> mEntries.put(key, "fresh")) // expect: Repository refresh this.mEntries
                .subscribeOn(Schedulers.io())
                .subscribe();
    }

    String get(String key) {
        return mEntries.get(key); // expect: Repository get this.mEntries
    }
}

/** The same chain without a scheduler runs where it is subscribed: nothing says it is shared. */
class PlainRepository {
    private final Map<String, String> mEntries = new HashMap<>();

    void refresh(String key) {
        Single.fromCallable(() -> mEntries.put(key, "fresh")).subscribe();
    }

    String get(String key) {
        return mEntries.get(key);
    }
}
