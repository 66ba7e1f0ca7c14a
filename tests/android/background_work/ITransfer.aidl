package fixtures.android.background_work;

interface ITransfer {
    oneway void pause();
    oneway void resume();
    boolean isPaused();
}
