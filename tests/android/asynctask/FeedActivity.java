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

/** Racy: the task reads the activity's query, which the main thread sets after starting it. */
class SearchActivity extends Activity {
    String mQuery;

    class Search extends AsyncTask<Void, Void, String> {
        @Override
        protected String doInBackground(Void... params) {
            return "results for " + mQuery;
        }
    }

    void search() {
        new Search().execute(); // expect (default mode): SearchActivity search this.mQuery
    }

    @Override
    protected void onPause() {
        super.onPause();
        mQuery = null;
    }
}

/** Safe: what the task reads is set before it starts and never again. */
class ReportActivity extends Activity {
    final String mTitle = "report";

    class Render extends AsyncTask<Void, Void, String> {
        @Override
        protected String doInBackground(Void... params) {
            return mTitle + " rendered";
        }

        @Override
        protected void onPostExecute(String page) {
            setTitle(page);
        }
    }

    void render() {
        new Render().execute();
    }
}

/** Racy: a runnable given to the static AsyncTask.execute runs in the background. */
class CounterActivity extends Activity {
    int mCount;

    void bump() {
        AsyncTask.execute(() -> mCount++); // expect (default mode): CounterActivity bump this.mCount
    }

    @Override
    protected void onResume() {
        super.onResume();
        setTitle("count " + mCount); // expect (default mode): CounterActivity onResume this.mCount
    }
}
