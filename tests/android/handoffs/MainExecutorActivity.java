package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import androidx.core.content.ContextCompat;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The main thread's executor (Context.getMainExecutor(), ContextCompat.getMainExecutor(), or a
 * field only ever given one) runs its tasks on the main thread: they do not race with the
 * lifecycle callbacks. A pool's tasks do.
 */
public class MainExecutorActivity extends Activity {
    private final ExecutorService mPool = Executors.newFixedThreadPool(2);
    private Executor mMain;
    private int mShown;
    private int mLoaded;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        mMain = getMainExecutor();
    }

    void show() {
        getMainExecutor().execute(() -> mShown++);
    }

    void showAgain() {
        ContextCompat.getMainExecutor(this).execute(() -> mShown++);
    }

    void hide() {
        mMain.execute(() -> mShown = 0);
    }

    void load() {
        mPool.execute(() -> mLoaded++); // expect: MainExecutorActivity load this.mLoaded
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mShown + " " + mLoaded); // expect: MainExecutorActivity onResume this.mLoaded
    }
}
