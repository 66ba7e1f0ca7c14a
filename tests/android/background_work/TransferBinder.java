package fixtures.android.background_work;

/**
 * Racy: `pause` and `resume` are `oneway`, served one at a time, but `isPaused` is an ordinary
 * call, which a binder thread serves while they run. `mPauses` is touched by a one-way call
 * alone: safe.
 */
public class TransferBinder extends ITransfer.Stub {
    private boolean mPaused;
    private int mPauses;

    @Override
    public void pause() {
        mPaused = true;
        mPauses++;
    }

    @Override
    public void resume() {
        mPaused = false;
    }

    @Override
    public boolean isPaused() {
        return mPaused;
    }
}
