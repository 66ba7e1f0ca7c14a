package fixtures.android.handoffs;

import android.app.Activity;
import android.os.Bundle;
import android.text.Editable;
import android.text.TextWatcher;
import android.widget.Button;
import android.widget.EditText;
import androidx.annotation.WorkerThread;
import androidx.lifecycle.MutableLiveData;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A view's listeners and a LiveData's observers run on the main thread, where they are
 * registered: a click lambda, an anonymous long-click listener, a TextWatcher and an observer
 * lambda. Their writes race with the worker-thread reader describe(), not with onResume's reads;
 * the click lambda's read of mResult races with the write of the task handed to the executor.
 */
public class ListenerActivity extends Activity {
    private final ExecutorService mExecutor = Executors.newSingleThreadExecutor();
    private final MutableLiveData<String> mStatus = new MutableLiveData<>();
    private int mClicks;
    private int mLongClicks;
    private String mTyped;
    private String mLatest;
    private String mResult;
    private String mShown;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        Button button = new Button(this);
        button.setOnClickListener(v -> {
            mClicks++;
            mShown = mResult;
        });
        button.setOnLongClickListener(new android.view.View.OnLongClickListener() {
            @Override
            public boolean onLongClick(android.view.View v) {
                mLongClicks++;
                return true;
            }
        });
        EditText text = new EditText(this);
        text.addTextChangedListener(new TextWatcher() {
            @Override
            public void beforeTextChanged(CharSequence s, int start, int count, int after) {}

            @Override
            public void onTextChanged(CharSequence s, int start, int before, int count) {}

            @Override
            public void afterTextChanged(Editable s) {
                mTyped = s.toString();
            }
        });
        mStatus.observeForever(status -> mLatest = status);
    }

    @Override
    protected void onStart() {
        super.onStart();
        mExecutor.execute(() -> mResult = "loaded");
    }

    @WorkerThread
    String describe() {
        return mClicks + " " + mLongClicks + " " + mTyped + " " + mLatest;
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mClicks + " " + mLongClicks + " " + mTyped + " " + mLatest + " " + mShown);
    }
}
