package fixtures.android.background_work;

import android.content.ContentProvider;
import android.content.ContentValues;
import android.database.Cursor;
import android.net.Uri;
import java.io.File;

/**
 * The safe provider: what onCreate sets is only read by the data access methods, the state they
 * change is guarded by one lock, and the arguments of each call (unmarshalled from its binder
 * transaction) are the call's own.
 */
public class CatalogProvider extends ContentProvider {
    private File mDirectory;
    private String mAuthority;
    private int mInserted;
    private final Object mLock = new Object();

    @Override
    public boolean onCreate() {
        mDirectory = getContext().getFilesDir();
        mAuthority = "catalog";
        return true;
    }

    @Override
    public Cursor query(Uri uri, String[] projection, String selection, String[] args, String order) {
        File file = new File(mDirectory, mAuthority);
        synchronized (mLock) {
            return file.exists() && mInserted > 0 ? null : null;
        }
    }

    @Override
    public String getType(Uri uri) {
        return "vnd.android.cursor.dir/" + mAuthority;
    }

    @Override
    public Uri insert(Uri uri, ContentValues values) {
        synchronized (mLock) {
            mInserted++;
        }
        return uri;
    }

    @Override
    public int bulkInsert(Uri uri, ContentValues[] values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                values[i] = new ContentValues();
            }
        }
        synchronized (mLock) {
            mInserted += values.length;
        }
        return values.length;
    }

    @Override
    public int delete(Uri uri, String selection, String[] args) {
        return 0;
    }

    @Override
    public int update(Uri uri, ContentValues values, String selection, String[] args) {
        return 0;
    }
}
