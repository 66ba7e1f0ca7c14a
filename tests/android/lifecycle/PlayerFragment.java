package fixtures.android.lifecycle;

import android.app.Fragment;

/** Fragment callbacks run on the main thread. */
public class PlayerFragment extends Fragment {
    private long mPosition;
    private boolean mVisible;

    @Override
    public void onStart() {
        super.onStart();
        mPosition = 0;
        mVisible = true;
    }

    @Override
    public void onStop() {
        super.onStop();
        mVisible = false;
    }

    public long position() {
        synchronized (this) {
            return mPosition; // expect: PlayerFragment position this.mPosition
        }
    }
}
