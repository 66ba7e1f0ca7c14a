package fixtures.android.handoffs;

import android.app.Activity;
import android.net.ConnectivityManager;
import android.net.Network;
import android.net.NetworkCapabilities;
import android.net.NetworkRequest;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.os.SystemClock;

/**
 * A NetworkCallback registered without a handler runs its callbacks on the process's
 * connectivity thread, one at a time; registered with a handler, where the handler runs its
 * messages. Each callback it overrides runs there (mLostAt is written by the second).
 */
public class ConnectivityActivity extends Activity {
    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private Handler mWorkerHandler;
    private boolean mOnline;
    private int mChanges;
    private volatile boolean mMetered;
    private boolean mValidated;
    private boolean mRoaming;
    private long mLostAt;

    private final ConnectivityManager.NetworkCallback mDefaultCallback = new ConnectivityManager.NetworkCallback() {
        @Override
        public void onAvailable(Network network) {
            mOnline = true;
            mChanges++;
        }

        @Override
        public void onLost(Network network) {
            mOnline = false;
            mLostAt = SystemClock.elapsedRealtime();
            mChanges++;
        }

        @Override
        public void onCapabilitiesChanged(Network network, NetworkCapabilities capabilities) {
            mMetered = !capabilities.hasCapability(NetworkCapabilities.NET_CAPABILITY_NOT_METERED);
        }
    };

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread worker = new HandlerThread("network");
        worker.start();
        mWorkerHandler = new Handler(worker.getLooper());
    }

    @Override
    protected void onStart() {
        super.onStart();
        ConnectivityManager manager = getSystemService(ConnectivityManager.class);
        manager.registerDefaultNetworkCallback(mDefaultCallback);
        NetworkRequest request = new NetworkRequest.Builder().build();
        manager.registerNetworkCallback(request, new ConnectivityManager.NetworkCallback() {
            @Override
            public void onCapabilitiesChanged(Network network, NetworkCapabilities capabilities) {
                mValidated = capabilities.hasCapability(NetworkCapabilities.NET_CAPABILITY_VALIDATED);
            }
        }, mMainHandler);
        manager.registerNetworkCallback(request, new ConnectivityManager.NetworkCallback() {
            @Override
            public void onCapabilitiesChanged(Network network, NetworkCapabilities capabilities) {
                mRoaming = !capabilities.hasCapability(NetworkCapabilities.NET_CAPABILITY_NOT_ROAMING);
            }
        }, mWorkerHandler);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mOnline ? "online" : "offline");
        setTitleColor(mMetered ? 1 : 0);
        if (mValidated && !mRoaming) {
            setVisible(true);
        }
        setProgress((int) (SystemClock.elapsedRealtime() - mLostAt));
    }
}
