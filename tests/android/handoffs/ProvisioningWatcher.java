package fixtures.android.handoffs;

import android.content.Context;
import android.database.ContentObserver;
import android.net.Uri;

/**
 * An observer made with no handler that registers (and unregisters) itself from a helper its
 * onChange calls: onChange runs on binder threads, so its check and update of mRegistered race
 * with themselves and with onSystemReady's (reported at each entry point of the helper).
 */
public class ProvisioningWatcher {
    private final Context mContext;
    private final Observer mObserver = new Observer();

    public ProvisioningWatcher(Context context) {
        mContext = context;
    }

    public void onSystemReady() {
        mObserver.onSystemReady();
    }

    boolean isProvisioned() {
        return mContext.getApplicationInfo() != null;
    }

    private final class Observer extends ContentObserver {
        private boolean mRegistered;

        Observer() {
            super(null);
        }

        @Override
        public void onChange(boolean selfChange, Uri uri) {
            updateRegistration();
        }

        void onSystemReady() {
            updateRegistration();
        }

        private void updateRegistration() {
            boolean register = !isProvisioned();
            if (register == mRegistered) {
                return;
            }
            if (register) {
                mContext.getContentResolver().registerContentObserver(Uri.EMPTY, false, this);
            } else {
                mContext.getContentResolver().unregisterContentObserver(this);
            }
            mRegistered = register;
        }
    }
}
