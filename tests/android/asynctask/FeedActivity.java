package fixtures.android.asynctask;

import android.app.Activity;
import android.os.AsyncTask;

/**
 * AsyncTask.doInBackground runs on a background thread; onPreExecute and onPostExecute run on
 * the main thread.
 */
public class FeedActivity extends Activity {
    String mFeed;
    int mLoads;

    /** Racy: the background code writes the activity's field, which onResume reads. */
    class RacyLoad extends AsyncTask<Void, Void, Void> {
        @Override
        protected Void doInBackground(Void... params) {
            mFeed = "loaded"; // expect: FeedActivity$RacyLoad doInBackground this.this$0.mFeed
            return null;
        }
    }

    /** Safe: the result travels through onPostExecute, which runs on the main thread. */
    class SafeLoad extends AsyncTask<String, Void, String> {
        @Override
        protected void onPreExecute() {
            mLoads++;
        }

        @Override
        protected String doInBackground(String... urls) {
            return "loaded from " + urls[0];
        }

        @Override
        protected void onPostExecute(String feed) {
            mFeed = feed;
        }
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle(mFeed);
    }
}
