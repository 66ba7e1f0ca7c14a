package fixtures.android.handoffs;

import android.app.Activity;
import android.location.Location;
import android.location.LocationListener;
import android.location.LocationManager;
import android.os.Bundle;
import android.os.HandlerThread;
import android.os.Looper;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A LocationListener runs on the looper or the executor it is registered with, and, given
 * neither, on the looper of the thread that registers it: the main thread's from onCreate.
 */
public class LocationActivity extends Activity {
    private final ExecutorService mPool = Executors.newCachedThreadPool();
    private Location mLocation;
    private int mFixes;
    private String mProvider;
    private int mUpdates;
    private Location mTracked;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        LocationManager locations = getSystemService(LocationManager.class);
        HandlerThread thread = new HandlerThread("location");
        thread.start();
        locations.requestLocationUpdates(LocationManager.GPS_PROVIDER, 1000L, 0f, location -> mLocation = location, thread.getLooper());
        locations.requestLocationUpdates(LocationManager.GPS_PROVIDER, 1000L, 0f, location -> mFixes++, Looper.getMainLooper());
        locations.requestLocationUpdates(LocationManager.NETWORK_PROVIDER, 1000L, 0f, location -> mProvider = location.getProvider());
        locations.requestLocationUpdates(LocationManager.FUSED_PROVIDER, 1000L, 0f, mPool, location -> mUpdates++);
    }

    void track(LocationManager locations) {
        // Not known to run on a looper thread: where the listener runs is not followed.
        locations.requestLocationUpdates(LocationManager.GPS_PROVIDER, 1000L, 0f, location -> mTracked = location);
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mLocation + " " + mFixes + " " + mProvider + " " + mUpdates + " " + mTracked);
    }

    // A background reader: the listener registered from onCreate writes on the main thread.
    @androidx.annotation.WorkerThread
    String providerForSync() {
        return mProvider;
    }
}
