package fixtures.android.background_work;

import android.accounts.Account;
import android.content.AbstractThreadedSyncAdapter;
import android.content.ContentProviderClient;
import android.content.Context;
import android.content.SyncResult;
import android.os.Bundle;

/**
 * A sync adapter's onPerformSync runs on a thread the adapter starts for the sync, and
 * onSyncCanceled is called from another thread while it runs: the plain flag races, the
 * volatile one does not, and the count of syncs is the sync thread's alone.
 */
public class AccountSyncAdapter extends AbstractThreadedSyncAdapter {
    private boolean mCanceled;
    private volatile boolean mAborted;
    private int mSyncs;

    public AccountSyncAdapter(Context context) {
        super(context, true);
    }

    @Override
    public void onPerformSync(Account account, Bundle extras, String authority, ContentProviderClient provider, SyncResult result) {
        mSyncs++;
        if (mCanceled || mAborted) { // expect: AccountSyncAdapter onPerformSync this.mCanceled
            return;
        }
    }

    @Override
    public void onSyncCanceled() {
        mCanceled = true;
        mAborted = true;
    }
}
