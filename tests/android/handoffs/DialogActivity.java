package fixtures.android.handoffs;

import android.app.Activity;
import android.app.AlertDialog;
import android.os.Bundle;
import androidx.annotation.WorkerThread;

/**
 * A dialog runs its listeners on the looper of the thread that made it: built in onCreate, on
 * the main thread, so the button's and the dismiss listener's writes race with the
 * worker-thread reader describe(), not with onResume. A dialog built in a method of unknown
 * thread is not followed.
 */
public class DialogActivity extends Activity {
    private boolean mConfirmed;
    private int mDismissals;
    private String mChoice;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        new AlertDialog.Builder(this)
                .setPositiveButton("OK", (dialog, which) -> mConfirmed = true)
                .setOnDismissListener(dialog -> mDismissals++)
                .show();
    }

    void ask(String[] choices) {
        new AlertDialog.Builder(this).setItems(choices, (dialog, which) -> mChoice = choices[which]).show();
    }

    @WorkerThread
    String describe() {
        return mConfirmed + " " + mDismissals + " " + mChoice;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mConfirmed + " " + mDismissals + " " + mChoice);
    }
}
