package fixtures.android.handoffs;

import android.text.Editable;
import android.text.TextWatcher;

/**
 * A TextWatcher whose afterTextChanged is synchronized and whose other callbacks are not. The
 * synchronized method is evidence that the class is used concurrently (spec 3.3), but a text
 * view calls its watchers on the main thread only: in the default mode the callbacks are
 * main-thread code and nothing races; RacerD's rules report the plain callbacks' writes.
 */
public class FormattingWatcher implements TextWatcher {
    private boolean mSelfChange;
    private int mEdits;

    @Override
    public void beforeTextChanged(CharSequence s, int start, int count, int after) {
        if (mSelfChange) {
            return;
        }
        mEdits++;
    }

    @Override
    public void onTextChanged(CharSequence s, int start, int before, int count) {
        mEdits++;
    }

    @Override
    public synchronized void afterTextChanged(Editable s) {
        mSelfChange = true;
        s.append("");
        mSelfChange = false;
    }
}
