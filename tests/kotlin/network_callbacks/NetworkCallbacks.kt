package kfixtures.network_callbacks

import android.net.ConnectivityManager
import android.net.Network

/** Racy: the callbacks run on the connectivity thread, the getter on the caller's. */
class OnlineStatus(private val manager: ConnectivityManager) {
    private var online = false
    private var changes = 0

    private val callback = object : ConnectivityManager.NetworkCallback() {
        override fun onAvailable(network: Network) {
            online = true
            changes++
        }

        override fun onLost(network: Network) {
            online = false
            changes++
        }
    }

    fun start() = manager.registerDefaultNetworkCallback(callback)

    fun stop() = manager.unregisterNetworkCallback(callback)

    fun isOnline(): Boolean = online // expect: OnlineStatus isOnline this.online
}

/** Safe: the flag is volatile, and the count is only the callbacks', which run one at a time. */
class VolatileStatus(private val manager: ConnectivityManager) {
    @Volatile
    private var online = false
    private var changes = 0

    private val callback = object : ConnectivityManager.NetworkCallback() {
        override fun onAvailable(network: Network) {
            online = true
            changes++
        }

        override fun onLost(network: Network) {
            online = false
            changes++
        }
    }

    fun start() = manager.registerDefaultNetworkCallback(callback)

    fun isOnline(): Boolean = online
}
