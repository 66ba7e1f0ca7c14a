package fixtures.android.background_work;

import android.content.ContentProvider;
import android.content.ContentValues;
import android.content.Context;
import android.content.pm.ProviderInfo;
import android.database.Cursor;
import android.net.Uri;

/**
 * A safe provider that reads its authority in attachInfo (as the framework's document providers
 * do) and notes in attachInfoForTesting (the framework's entry point that tests call in its
 * place) that it runs under test: both run before any data access method, so what they set
 * races with none of them.
 */
public class ManifestProvider extends ContentProvider {
    private String mAuthority;
    private boolean mUnderTest;

    @Override
    public void attachInfo(Context context, ProviderInfo info) {
        mAuthority = info.authority;
        super.attachInfo(context, info);
    }

    @Override
    public void attachInfoForTesting(Context context, ProviderInfo info) {
        mUnderTest = true;
        super.attachInfoForTesting(context, info);
    }

    @Override
    public boolean onCreate() {
        return true;
    }

    @Override
    public Cursor query(Uri uri, String[] projection, String selection, String[] args, String order) {
        return mUnderTest || mAuthority == null ? null : null;
    }

    @Override
    public String getType(Uri uri) {
        return "vnd.android.cursor.item/" + mAuthority;
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
}
