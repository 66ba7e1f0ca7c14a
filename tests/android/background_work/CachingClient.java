package fixtures.android.background_work;

import android.webkit.WebResourceRequest;
import android.webkit.WebResourceResponse;
import android.webkit.WebView;
import android.webkit.WebViewClient;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A WebView asks its client's shouldInterceptRequest on a thread other than the main thread,
 * for several requests at once: a plain map it fills races; a concurrent one does not.
 */
public class CachingClient extends WebViewClient {
    private final Map<String, byte[]> mBodies = new HashMap<>();
    private final Map<String, String> mTypes = new ConcurrentHashMap<>();

    @Override
    public WebResourceResponse shouldInterceptRequest(WebView view, WebResourceRequest request) {
        String url = request.getUrl().toString();
        byte[] body = mBodies.get(url); // expect: CachingClient shouldInterceptRequest this.mBodies
        if (body == null) {
            body = new byte[0];
            mBodies.put(url, body); // expect: CachingClient shouldInterceptRequest this.mBodies
        }
        mTypes.put(url, "text/html");
        return null;
    }
}
