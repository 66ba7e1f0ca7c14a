package fixtures.android.handoffs;

import android.app.Activity;
import android.hardware.camera2.CameraAccessException;
import android.hardware.camera2.CameraCaptureSession;
import android.hardware.camera2.CameraDevice;
import android.hardware.camera2.CameraManager;
import android.hardware.camera2.params.OutputConfiguration;
import android.hardware.camera2.params.SessionConfiguration;
import android.media.ImageReader;
import android.view.Surface;
import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The camera's executor overloads run the callbacks on the executor given with them: one
 * thread's for the device, the main thread's for the session configured, a pool's for the
 * image reader.
 */
public class CameraExecutorActivity extends Activity {
    private final ExecutorService mCameraThread = Executors.newSingleThreadExecutor();
    private final ExecutorService mPool = Executors.newFixedThreadPool(2);
    private CameraDevice mCameraDevice;
    private int mOpens;
    private boolean mPreviewing;
    private int mImages;

    private final CameraDevice.StateCallback mStateCallback = new CameraDevice.StateCallback() {
        @Override
        public void onOpened(CameraDevice camera) {
            mCameraDevice = camera;
            mOpens++;
        }

        @Override
        public void onDisconnected(CameraDevice camera) {
            camera.close();
            mOpens--;
        }

        @Override
        public void onError(CameraDevice camera, int error) {
            camera.close();
        }
    };

    void open(ImageReader reader) throws CameraAccessException {
        getSystemService(CameraManager.class).openCamera("0", mCameraThread, mStateCallback);
        reader.setOnImageAvailableListenerWithExecutor(r -> mImages++, mPool);
    }

    void preview(CameraDevice camera, Surface surface) throws CameraAccessException {
        SessionConfiguration configuration = new SessionConfiguration(SessionConfiguration.SESSION_REGULAR,
                Collections.singletonList(new OutputConfiguration(surface)), getMainExecutor(),
                new CameraCaptureSession.StateCallback() {
                    @Override
                    public void onConfigured(CameraCaptureSession session) {
                        mPreviewing = true;
                    }

                    @Override
                    public void onConfigureFailed(CameraCaptureSession session) {
                        mPreviewing = false;
                    }
                });
        camera.createCaptureSession(configuration);
    }

    @Override
    protected void onPause() {
        super.onPause();
        if (mCameraDevice != null) {
            mCameraDevice.close();
        }
        setTitle(mPreviewing + " " + mImages);
    }
}
