package dev.racer.bridge;

/**
 * The JNI surface of {@code libracer_jni} (see docs/bridge.md). Call only through {@link Racer},
 * which loads the library first.
 */
final class RacerNative {
    private RacerNative() {
    }

    /** The engine version, e.g. {@code "0.1.0"}. */
    static native String version();

    /** Runs one analysis request (JSON) and returns the response (JSON). */
    static native String analyze(String requestJson);
}
