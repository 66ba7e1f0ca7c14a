package fixtures.android.asynctask;

import android.os.AsyncTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Safe: the task's own fields, set by onPreExecute and doInBackground and read by
 * onPostExecute. A task runs doInBackground once, and AsyncTask orders it after onPreExecute
 * and before onPostExecute, whose memory effects each sees (the class's documented memory
 * observability).
 */
class LoadWithError extends AsyncTask<Void, Void, String> {
    Exception mError;
    int mAttempts;
    final List<String> mPages = new ArrayList<>();

    @Override
    protected void onPreExecute() {
        mAttempts = 0;
    }

    @Override
    protected String doInBackground(Void... params) {
        mAttempts++;
        try {
            mPages.add(load());
            return load();
        } catch (Exception e) {
            mError = e;
            return null;
        }
    }

    @Override
    protected void onPostExecute(String page) {
        if (mError != null) {
            mError = null;
        }
        mPages.clear();
    }

    private String load() throws Exception {
        return "page";
    }
}

/**
 * Racy: the main thread may ask for the count while the task's background code makes it, and
 * onProgressUpdate runs while the background code goes on (only what it did before
 * publishProgress is ordered before the update).
 */
class CountingTask extends AsyncTask<Void, Void, Void> {
    int mDone;
    int mShown;

    @Override
    protected Void doInBackground(Void... params) {
        for (int i = 0; i < 10; i++) {
            mDone++;
            publishProgress();
        }
        return null;
    }

    @Override
    protected void onProgressUpdate(Void... values) {
        mShown = mDone; // expect (default mode): CountingTask onProgressUpdate this.mDone
    }

    public int done() {
        return mDone; // expect (default mode): CountingTask done this.mDone
    }
}
