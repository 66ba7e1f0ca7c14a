package fixtures.android.handoffs;

import android.content.Context;
import android.net.ConnectivityManager;

/** A helper that registers the callbacks it is given, for the default network. */
public final class NetworkRegistrar {
    private NetworkRegistrar() {}

    public static void watchDefault(Context context, ConnectivityManager.NetworkCallback callback) {
        context.getSystemService(ConnectivityManager.class).registerDefaultNetworkCallback(callback);
    }
}
