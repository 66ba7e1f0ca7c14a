package fixtures.android.background_work;

import android.content.ContentProvider;
import android.content.ContentValues;
import android.database.Cursor;
import android.net.Uri;
import java.io.File;
import java.util.HashMap;
import java.util.Map;

/**
 * A content provider's data access methods may be called from many threads at once (binder
 * threads): a counter they bump and a cache they fill without a lock race. What onCreate sets
 * (on the main thread, before the provider is handed to any caller) is seen by all of them.
 */
public class NotesProvider extends ContentProvider {
    private File mDirectory;
    private int mQueries;
    private final Map<String, String> mTypes = new HashMap<>();

    @Override
    public boolean onCreate() {
        mDirectory = getContext().getFilesDir();
        return true;
    }

    @Override
    public Cursor query(Uri uri, String[] projection, String selection, String[] args, String order) {
        mQueries++; // expect: NotesProvider query this.mQueries
        return open(new File(mDirectory, uri.getLastPathSegment()));
    }

    @Override
    public String getType(Uri uri) {
        String key = uri.getLastPathSegment();
        String type = mTypes.get(key); // expect: NotesProvider getType this.mTypes
        if (type == null) {
            type = "vnd.android.cursor.item/" + key;
            mTypes.put(key, type); // expect: NotesProvider getType this.mTypes
        }
        return type;
    }

    @Override
    public Uri insert(Uri uri, ContentValues values) {
        return null;
    }

    @Override
    public int delete(Uri uri, String selection, String[] args) {
        return 0;
    }

    @Override
    public int update(Uri uri, ContentValues values, String selection, String[] args) {
        return 0;
    }

    private static Cursor open(File file) {
        return null;
    }
}
