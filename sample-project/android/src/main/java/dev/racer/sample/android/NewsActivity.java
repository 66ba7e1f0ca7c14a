package dev.racer.sample.android;

import android.app.Activity;
import android.os.Bundle;
import android.widget.TextView;
import dev.racer.sample.annotations.WorkerThread;

/**
 * The main-thread rules: lifecycle callbacks (onCreate, onResume, ...) run on the main thread,
 * one at a time; @WorkerThread code runs in the background.
 */
public class NewsActivity extends Activity {
    private TextView headlineView;
    // Written in the background, read on the main thread: a race.
    private String headline = "";
    // Handed to the main thread with runOnUiThread: safe.
    private String status = "";
    // Lifecycle callbacks only: safe.
    private int resumes;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        headlineView = new TextView(this);
        setContentView(headlineView);
        resumes = 0;
    }

    @Override
    protected void onResume() {
        super.onResume();
        resumes++;
        headlineView.setText(headline + " (" + status + ", " + resumes + ")");
    }

    /** Runs on a background thread: writes the field onResume reads, without a lock. */
    @WorkerThread
    public void refresh() {
        headline = download("headline");
    }

    /** Runs on a background thread, but hands its result to the main thread. */
    @WorkerThread
    public void refreshStatus() {
        final String fresh = download("status");
        runOnUiThread(() -> status = fresh);
    }

    private static String download(String what) {
        return what + " from the network at " + System.currentTimeMillis();
    }
}
