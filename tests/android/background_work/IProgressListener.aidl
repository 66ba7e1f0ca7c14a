package fixtures.android.background_work;

oneway interface IProgressListener {
    void onProgress(int percent);
    void onDone();
}
