package fixtures.android.handoffs;

import android.app.Activity;
import android.net.ConnectivityManager;
import android.net.Network;
import android.net.NetworkCapabilities;

/** Registers its callback through a helper: the callback still runs on the connectivity thread. */
public class MeteredActivity extends Activity {
    private boolean mMetered;

    @Override
    protected void onStart() {
        super.onStart();
        NetworkRegistrar.watchDefault(this, new ConnectivityManager.NetworkCallback() {
            @Override
            public void onCapabilitiesChanged(Network network, NetworkCapabilities capabilities) {
                mMetered = !capabilities.hasCapability(NetworkCapabilities.NET_CAPABILITY_NOT_METERED);
            }
        });
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mMetered ? "metered" : "unmetered");
    }
}
