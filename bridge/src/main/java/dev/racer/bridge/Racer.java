package dev.racer.bridge;

/**
 * Entry point of the bridge: runs analyses in-process through {@code libracer_jni}, or in a child
 * {@code racer} process ({@link Isolation#PROCESS}).
 *
 * <p>Thread-safe: the native library is reentrant, so several threads (parallel Gradle projects,
 * a multi-threaded Maven reactor) may call {@link #analyze} at once.
 */
public final class Racer {
    private Racer() {
    }

    /** Runs one analysis in this JVM; writes the requested report and summary files. */
    public static AnalysisResult analyze(AnalysisRequest request) {
        return analyze(request, Isolation.IN_PROCESS);
    }

    /** Runs one analysis in this JVM or in a child process; writes the requested report and summary files. */
    public static AnalysisResult analyze(AnalysisRequest request, Isolation isolation) {
        String json = request.toJson();
        return AnalysisResult.parse(isolation == Isolation.PROCESS ? analyzeJsonInChildProcess(json) : analyzeJson(json));
    }

    /** Raw form of a child-process analysis: a request document in, the response document out. */
    public static String analyzeJsonInChildProcess(String requestJson) {
        if (requestJson == null) {
            throw new RacerException("racer: the analysis request is null");
        }
        return ChildProcess.analyzeJson(requestJson);
    }

    /** Raw form: a request document in, the response document out. */
    public static String analyzeJson(String requestJson) {
        if (requestJson == null) {
            throw new RacerException("racer: the analysis request is null");
        }
        NativeLibrary.ensureLoaded();
        String response = RacerNative.analyze(requestJson);
        if (response == null) {
            throw new RacerException("racer: the engine returned no response");
        }
        return response;
    }

    /** The version reported by the loaded native engine (loads it if needed). */
    public static String engineVersion() {
        NativeLibrary.ensureLoaded();
        return RacerNative.version();
    }

    /** The version of this bridge jar. */
    public static String bridgeVersion() {
        return NativeLibrary.bridgeVersion();
    }
}
