package fixtures.android.background_work;

import android.os.FileObserver;
import androidx.annotation.MainThread;
import java.io.File;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A FileObserver's onEvent runs on the framework's FileObserver thread: a plain count it keeps
 * and the main thread reads races; an atomic one does not.
 */
public class DownloadsObserver extends FileObserver {
    private int mCreated;
    private final AtomicInteger mDeleted = new AtomicInteger();

    public DownloadsObserver(File directory) {
        super(directory, CREATE | DELETE);
    }

    @Override
    public void onEvent(int event, String path) {
        if (event == CREATE) {
            mCreated++;
        } else {
            mDeleted.incrementAndGet();
        }
    }

    @MainThread
    public int created() {
        return mCreated; // expect: DownloadsObserver created this.mCreated
    }

    @MainThread
    public int deleted() {
        return mDeleted.get();
    }
}
