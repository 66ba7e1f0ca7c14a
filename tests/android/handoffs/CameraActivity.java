package fixtures.android.handoffs;

import android.app.Activity;
import android.hardware.camera2.CameraAccessException;
import android.hardware.camera2.CameraCaptureSession;
import android.hardware.camera2.CameraDevice;
import android.hardware.camera2.CameraManager;
import android.media.ImageReader;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import android.view.Surface;
import java.util.Collections;

/**
 * The camera runs the callbacks it is given on the looper of the handler given with them: a
 * HandlerThread's for the device and the image reader here, the main looper's for the session.
 */
public class CameraActivity extends Activity {
    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private Handler mBackgroundHandler;
    private ImageReader mImageReader;
    private CameraDevice mCameraDevice;
    private int mOpens;
    private int mImages;
    private boolean mPreviewing;

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

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread thread = new HandlerThread("camera");
        thread.start();
        mBackgroundHandler = new Handler(thread.getLooper());
        mImageReader = ImageReader.newInstance(640, 480, 256, 2);
        mImageReader.setOnImageAvailableListener(reader -> mImages++, mBackgroundHandler);
    }

    void open() throws CameraAccessException {
        getSystemService(CameraManager.class).openCamera("0", mStateCallback, mBackgroundHandler);
    }

    void preview(CameraDevice camera, Surface surface) throws CameraAccessException {
        camera.createCaptureSession(Collections.singletonList(surface), new CameraCaptureSession.StateCallback() {
            @Override
            public void onConfigured(CameraCaptureSession session) {
                mPreviewing = true;
            }

            @Override
            public void onConfigureFailed(CameraCaptureSession session) {
                mPreviewing = false;
            }
        }, mMainHandler);
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
