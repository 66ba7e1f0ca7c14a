package fixtures.android.handoffs;

import android.net.ConnectivityManager;
import android.net.Network;
import java.util.ArrayList;
import java.util.List;

/**
 * A callback object registered elsewhere: whichever looper runs its callbacks runs them one at
 * a time, so their own writes are in order; the lock they take says the object is shared, and
 * the unlocked getter races with them.
 */
public class NetworkState extends ConnectivityManager.NetworkCallback {
    private final Object mLock = new Object();
    private final List<Network> mHistory = new ArrayList<>();
    private Network mCurrent;

    @Override
    public void onAvailable(Network network) {
        mCurrent = network;
        synchronized (mLock) {
            mHistory.add(network);
        }
    }

    @Override
    public void onLost(Network network) {
        mCurrent = null;
        synchronized (mLock) {
            mHistory.remove(network);
        }
    }

    public Network current() {
        return mCurrent;
    }

    public int seen() {
        synchronized (mLock) {
            return mHistory.size();
        }
    }
}
