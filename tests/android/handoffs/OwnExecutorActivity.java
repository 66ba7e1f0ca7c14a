package fixtures.android.handoffs;

import android.app.Activity;
import android.hardware.camera2.CameraManager;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;
import java.util.concurrent.Executor;

/**
 * An executor class of the app's own, made with a handler, whose execute posts its tasks to
 * that handler runs them where the handler runs its posts: on the main thread for a main-looper
 * handler, one at a time on the worker for a HandlerThread's, whether it is kept in a field of
 * its own type or of Executor's, made in the method (also on a looper), or given to a
 * registration. One made with a handler that starts a thread per task runs its tasks at once.
 * PostingExecutor is a class of its own, so that it can be compiled in another module, or put
 * on the classpath.
 */
public class OwnExecutorActivity extends Activity {
    /** Made with a handler, where it counts the tasks started; runs each on a thread of its own. */
    static final class ThreadPerTaskExecutor implements Executor {
        private final Handler mHandler;
        private int mStarted;

        ThreadPerTaskExecutor(Handler handler) {
            mHandler = handler;
        }

        @Override
        public void execute(Runnable task) {
            new Thread(task).start();
            mHandler.post(this::countStarted);
        }

        private void countStarted() {
            mStarted++;
        }
    }

    private final Handler mMainHandler = new Handler(Looper.getMainLooper());
    private final Executor mOnMain = new PostingExecutor(mMainHandler);
    private final Executor mDownloader = new ThreadPerTaskExecutor(mMainHandler);
    private Handler mWorkerHandler;
    private PostingExecutor mOnWorker;
    private int mShown;
    private int mSaved;
    private int mDownloads;
    private int mCameras;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        HandlerThread worker = new HandlerThread("worker");
        worker.start();
        mWorkerHandler = new Handler(worker.getLooper());
        mOnWorker = new PostingExecutor(mWorkerHandler);
    }

    void show() {
        mOnMain.execute(() -> mShown++);
        new PostingExecutor(mMainHandler).execute(() -> mShown++);
    }

    void save() {
        mOnWorker.execute(() -> mSaved++);
    }

    void download() {
        mDownloader.execute(() -> mDownloads++);
    }

    void watchCameras() {
        getSystemService(CameraManager.class).registerAvailabilityCallback(new PostingExecutor(mMainHandler),
                new CameraManager.AvailabilityCallback() {
                    @Override
                    public void onCameraAvailable(String cameraId) {
                        mCameras++;
                    }
                });
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mSaved + " " + mDownloads + " " + mCameras);
    }

    // Made on a looper rather than a handler: the main one, and a HandlerThread's.
    private int mLooperShown;
    private int mLooperSaved;

    void showOnLooper() {
        new PostingExecutor(Looper.getMainLooper()).execute(() -> mLooperShown++);
    }

    void saveOnLooper(HandlerThread worker) {
        new PostingExecutor(worker.getLooper()).execute(() -> mLooperSaved++);
    }

    @Override
    protected void onPause() {
        super.onPause();
        setTitle(mLooperShown + " " + mLooperSaved);
    }
}
