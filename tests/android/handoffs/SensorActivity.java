package fixtures.android.handoffs;

import android.app.Activity;
import android.hardware.Sensor;
import android.hardware.SensorEvent;
import android.hardware.SensorEventListener;
import android.hardware.SensorManager;
import android.os.Handler;
import android.os.HandlerThread;

/**
 * A SensorEventListener registered without a handler gets its events on the main thread; with a
 * HandlerThread's handler, on that thread, one at a time.
 */
public class SensorActivity extends Activity implements SensorEventListener {
    private float mAcceleration;
    private int mSteps;
    private long mLastStepAt;

    private final SensorEventListener mStepListener = new SensorEventListener() {
        @Override
        public void onSensorChanged(SensorEvent event) {
            mSteps++;
            mLastStepAt = event.timestamp;
        }

        @Override
        public void onAccuracyChanged(Sensor sensor, int accuracy) {
            mLastStepAt = 0;
        }
    };

    @Override
    protected void onResume() {
        super.onResume();
        SensorManager sensors = getSystemService(SensorManager.class);
        sensors.registerListener(this, sensors.getDefaultSensor(Sensor.TYPE_ACCELEROMETER), SensorManager.SENSOR_DELAY_UI);
        HandlerThread thread = new HandlerThread("steps");
        thread.start();
        Sensor counter = sensors.getDefaultSensor(Sensor.TYPE_STEP_COUNTER);
        sensors.registerListener(mStepListener, counter, SensorManager.SENSOR_DELAY_NORMAL, new Handler(thread.getLooper()));
    }

    @Override
    public void onSensorChanged(SensorEvent event) {
        mAcceleration = event.values[0];
    }

    @Override
    public void onAccuracyChanged(Sensor sensor, int accuracy) {
    }

    @Override
    protected void onPause() {
        super.onPause();
        setTitle(mAcceleration + " " + mSteps);
    }

    // A background reader: the activity's own listener writes on the main thread.
    @androidx.annotation.WorkerThread
    float accelerationForLog() {
        return mAcceleration;
    }

    private int mLightChanges;

    // A listener object registered without a handler: its callbacks run on the main thread.
    void watchLight(SensorManager sensors) {
        sensors.registerListener(new SensorEventListener() {
            @Override
            public void onSensorChanged(SensorEvent event) {
                mLightChanges++;
            }

            @Override
            public void onAccuracyChanged(Sensor sensor, int accuracy) {
            }
        }, sensors.getDefaultSensor(Sensor.TYPE_LIGHT), SensorManager.SENSOR_DELAY_UI);
    }

    @androidx.annotation.WorkerThread
    int lightChangesForLog() {
        return mLightChanges;
    }
}
