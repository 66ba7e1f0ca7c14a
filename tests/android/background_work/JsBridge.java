package fixtures.android.background_work;

import android.webkit.JavascriptInterface;
import androidx.annotation.UiThread;

/**
 * An object given to WebView.addJavascriptInterface has its @JavascriptInterface methods called
 * on a background thread of the WebView: a title they set and the main thread reads races; a
 * count kept under the object's lock does not.
 */
public class JsBridge {
    private String mTitle;
    private int mMessages;

    @JavascriptInterface
    public void setTitle(String title) {
        mTitle = title; // expect: JsBridge setTitle this.mTitle
    }

    @JavascriptInterface
    public synchronized void postMessage(String message) {
        mMessages++;
    }

    @UiThread
    public String title() {
        return mTitle; // expect: JsBridge title this.mTitle
    }

    @UiThread
    public synchronized int messages() {
        return mMessages;
    }
}
