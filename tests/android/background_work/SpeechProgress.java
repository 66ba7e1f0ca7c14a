package fixtures.android.background_work;

import android.speech.tts.UtteranceProgressListener;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * A text-to-speech engine may call an utterance listener from several threads: the utterance
 * onStart records in a plain field races; the synchronized set of finished ones does not.
 */
public class SpeechProgress extends UtteranceProgressListener {
    private String mCurrent;
    private final Set<String> mFinished = Collections.synchronizedSet(new HashSet<>());

    @Override
    public void onStart(String utteranceId) {
        mCurrent = utteranceId; // expect: SpeechProgress onStart this.mCurrent
    }

    @Override
    public void onDone(String utteranceId) {
        mFinished.add(utteranceId);
    }

    @Override
    public void onError(String utteranceId) {
        mFinished.add(utteranceId);
    }
}
