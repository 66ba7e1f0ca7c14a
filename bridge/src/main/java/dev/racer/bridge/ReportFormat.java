package dev.racer.bridge;

import java.util.Locale;

/** The report files the engine can write. */
public enum ReportFormat {
    TEXT("txt"),
    JSON("json"),
    SARIF("sarif"),
    HTML("html");

    private final String extension;

    ReportFormat(String extension) {
        this.extension = extension;
    }

    /** File extension without the dot: {@code txt}, {@code json}, {@code sarif}, {@code html}. */
    public String extension() {
        return extension;
    }

    /** Key of this format in the request's {@code reports} object. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code text|json|sarif|html} (case-insensitive). */
    public static ReportFormat parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (ReportFormat f : values()) {
            if (f.key().equals(n) || f.extension.equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown racer report format '" + name + "' (expected text, json, sarif or html)");
    }
}
