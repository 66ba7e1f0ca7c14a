package fixtures.android.background_work;

import android.opengl.GLSurfaceView;
import androidx.annotation.UiThread;
import javax.microedition.khronos.egl.EGLConfig;
import javax.microedition.khronos.opengles.GL10;

/**
 * A GLSurfaceView calls its renderer on its own rendering thread: an angle the main thread sets
 * and onDrawFrame reads races; a volatile zoom does not, and what the renderer's callbacks share
 * among themselves is the rendering thread's alone.
 */
public class SceneRenderer implements GLSurfaceView.Renderer {
    private float mAngle;
    private volatile float mZoom = 1f;
    private int mWidth;
    private long mFrames;

    @Override
    public void onSurfaceCreated(GL10 gl, EGLConfig config) {
        mFrames = 0;
    }

    @Override
    public void onSurfaceChanged(GL10 gl, int width, int height) {
        mWidth = width;
    }

    @Override
    public void onDrawFrame(GL10 gl) {
        mFrames++;
        float turn = mAngle * mZoom; // expect: SceneRenderer onDrawFrame this.mAngle
        if (mWidth > 0 && turn > 0) {
            gl.glRotatef(turn, 0f, 0f, 1f);
        }
    }

    @UiThread
    public void setAngle(float angle) {
        mAngle = angle;
    }

    @UiThread
    public void setZoom(float zoom) {
        mZoom = zoom;
    }
}
