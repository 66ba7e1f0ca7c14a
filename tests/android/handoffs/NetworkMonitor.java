package fixtures.android.handoffs;

import android.net.ConnectivityManager;
import android.net.Network;

/**
 * A callback object that registers itself: its callbacks run on the connectivity thread, one
 * at a time, and its getter on whichever thread asks.
 */
public class NetworkMonitor extends ConnectivityManager.NetworkCallback {
    private final ConnectivityManager mManager;
    private boolean mConnected;
    private int mLosses;

    public NetworkMonitor(ConnectivityManager manager) {
        mManager = manager;
    }

    public void start() {
        mManager.registerDefaultNetworkCallback(this);
    }

    public void stop() {
        mManager.unregisterNetworkCallback(this);
    }

    @Override
    public void onAvailable(Network network) {
        mConnected = true;
    }

    @Override
    public void onLost(Network network) {
        mConnected = false;
        mLosses++;
    }

    public boolean isConnected() {
        return mConnected;
    }
}
