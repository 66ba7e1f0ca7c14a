package dev.racer.bridge;

import java.util.Locale;

/** Where an analysis runs: in this JVM through JNI, or in a child process. */
public enum Isolation {
    /** Through {@code libracer_jni} in this JVM (the default: no process start-up). */
    IN_PROCESS("in-process"),
    /**
     * In a child {@code racer} process: even a crash or an out-of-memory abort of the engine only
     * fails the analysis, never the JVM.
     */
    PROCESS("process");

    private final String settingValue;

    Isolation(String settingValue) {
        this.settingValue = settingValue;
    }

    /** The value as written in a build setting ({@code in-process} or {@code process}). */
    public String settingValue() {
        return settingValue;
    }

    /** Parses a build setting; null or empty means {@link #IN_PROCESS}. */
    public static Isolation parse(String value) {
        if (value == null || value.trim().isEmpty()) {
            return IN_PROCESS;
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (Isolation i : values()) {
            if (i.settingValue.equals(v)) {
                return i;
            }
        }
        throw new RacerException("racer: unknown isolation '" + value + "' (expected 'in-process' or 'process')");
    }
}
