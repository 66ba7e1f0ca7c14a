package dev.racer.bridge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** The parsed engine response: issues, counts, console text, diagnostics and statistics (docs/bridge.md). */
public final class AnalysisResult {
    private final String toolName;
    private final String toolVersion;
    private final List<Issue> issues;
    private final List<Diagnostic> diagnostics;
    private final Stats stats;
    private final Counts counts;
    private final String console;
    private final String json;

    private AnalysisResult(String toolName, String toolVersion, List<Issue> issues, List<Diagnostic> diagnostics,
            Stats stats, Counts counts, String console, String json) {
        this.toolName = toolName;
        this.toolVersion = toolVersion;
        this.issues = Collections.unmodifiableList(issues);
        this.diagnostics = Collections.unmodifiableList(diagnostics);
        this.stats = stats;
        this.counts = counts;
        this.console = console;
        this.json = json;
    }

    /** Parses a response document; unknown fields are ignored. Throws {@link RacerException} if malformed. */
    public static AnalysisResult parse(String responseJson) {
        if (responseJson == null) {
            throw new RacerException("racer: the engine returned no response");
        }
        Map<String, Object> root = Json.object(Json.parse(responseJson), "the response");
        Map<String, Object> tool = Json.object(root.get("tool"), "tool");
        List<Issue> issues = new ArrayList<Issue>();
        for (Object o : Json.array(root.get("issues"), "issues")) {
            issues.add(Issue.from(Json.object(o, "an issue")));
        }
        List<Diagnostic> diagnostics = new ArrayList<Diagnostic>();
        for (Object o : Json.array(root.get("diagnostics"), "diagnostics")) {
            Map<String, Object> d = Json.object(o, "a diagnostic");
            diagnostics.add(new Diagnostic(Json.string(d, "file"), Json.string(d, "message")));
        }
        Map<String, Object> s = Json.object(root.get("stats"), "stats");
        Stats stats = new Stats(Json.number(s, "classes"), Json.number(s, "methods_analysed"),
                Json.number(s, "upstream_classes"), Json.number(s, "upstream_methods"), Json.number(s, "millis"));
        Counts counts = root.get("counts") != null
                ? Counts.from(Json.object(root.get("counts"), "counts"))
                : Counts.allNew(issues.size());
        return new AnalysisResult(Json.string(tool, "name"), Json.string(tool, "version"), issues, diagnostics,
                stats, counts, Json.string(root, "console"), responseJson);
    }

    public String toolName() {
        return toolName;
    }

    public String toolVersion() {
        return toolVersion;
    }

    public List<Issue> issues() {
        return issues;
    }

    /** Inputs that could not be read; the rest was analysed. */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    public Stats stats() {
        return stats;
    }

    /** How many issues are new, baselined, suppressed; only new ones fail a build. */
    public Counts counts() {
        return counts;
    }

    /**
     * The engine's console text (issues grouped by class and field, the first {@code console_limit}
     * in full, then the counts); "" when the engine sent none.
     */
    public String console() {
        return console;
    }

    /** The build-failure rule shared by every build tool: more new issues than allowed. */
    public boolean fails(int allowedNewIssues) {
        return counts.newIssues() > allowedNewIssues;
    }

    /** The raw response document. */
    public String json() {
        return json;
    }

    /** One step of a trace: a call site or the access itself. */
    public static final class TraceElement {
        private final String className;
        private final String method;
        private final String descriptor;
        private final int line;
        private final String description;

        TraceElement(String className, String method, String descriptor, int line, String description) {
            this.className = className;
            this.method = method;
            this.descriptor = descriptor;
            this.line = line;
            this.description = description;
        }

        static List<TraceElement> list(Object value) {
            List<TraceElement> out = new ArrayList<TraceElement>();
            for (Object o : Json.array(value, "a trace")) {
                Map<String, Object> t = Json.object(o, "a trace element");
                out.add(new TraceElement(Json.string(t, "class"), Json.string(t, "method"),
                        Json.string(t, "descriptor"), (int) Json.number(t, "line"), Json.string(t, "description")));
            }
            return Collections.unmodifiableList(out);
        }

        /** Binary class name ({@code a.b.Outer$Inner}). */
        public String className() {
            return className;
        }

        public String method() {
            return method;
        }

        public String descriptor() {
            return descriptor;
        }

        public int line() {
            return line;
        }

        public String description() {
            return description;
        }

        /** {@code a/b/Outer.java:LINE}, the source file guessed from the outermost class name. */
        public String location() {
            return Locations.guessSourcePath(className) + ":" + line;
        }
    }

    /** The other side of a race. */
    public static final class Conflict {
        private final String className;
        private final String method;
        private final String descriptor;
        private final int line;
        private final String accessPath;
        private final String access;
        private final boolean locked;
        private final List<TraceElement> trace;

        Conflict(Map<String, Object> c) {
            className = Json.string(c, "class");
            method = Json.string(c, "method");
            descriptor = Json.string(c, "descriptor");
            line = (int) Json.number(c, "line");
            accessPath = Json.string(c, "access_path");
            access = Json.string(c, "access");
            locked = Json.bool(c, "locked");
            trace = TraceElement.list(c.get("trace"));
        }

        public String className() {
            return className;
        }

        public String method() {
            return method;
        }

        public String descriptor() {
            return descriptor;
        }

        public int line() {
            return line;
        }

        public String accessPath() {
            return accessPath;
        }

        /** {@code "read"} or {@code "write"}. */
        public String access() {
            return access;
        }

        public boolean locked() {
            return locked;
        }

        public List<TraceElement> trace() {
            return trace;
        }

        /** {@code a/b/Outer.java:LINE}, the source file guessed from the outermost class name. */
        public String location() {
            return Locations.guessSourcePath(className) + ":" + line;
        }
    }

    /** One reported race. */
    public static final class Issue {
        private final String kind;
        private final String className;
        private final String method;
        private final String descriptor;
        private final int line;
        private final String sourceFile;
        private final String accessPath;
        private final String message;
        private final List<TraceElement> trace;
        private final List<Conflict> conflicts;
        private final String baseline;
        private final Suppression suppressed;

        private Issue(Map<String, Object> i) {
            kind = Json.string(i, "kind");
            className = Json.string(i, "class");
            method = Json.string(i, "method");
            descriptor = Json.string(i, "descriptor");
            line = (int) Json.number(i, "line");
            sourceFile = Json.string(i, "source_file");
            accessPath = Json.string(i, "access_path");
            message = Json.string(i, "message");
            trace = TraceElement.list(i.get("trace"));
            List<Conflict> cs = new ArrayList<Conflict>();
            for (Object o : Json.array(i.get("conflicts"), "conflicts")) {
                cs.add(new Conflict(Json.object(o, "a conflict")));
            }
            conflicts = Collections.unmodifiableList(cs);
            baseline = i.get("baseline") == null ? "new" : Json.string(i, "baseline");
            suppressed = i.get("suppressed") == null ? null
                    : new Suppression(Json.object(i.get("suppressed"), "suppressed"));
        }

        static Issue from(Map<String, Object> i) {
            return new Issue(i);
        }

        /** {@code THREAD_SAFETY_VIOLATION}, {@code INTERFACE_NOT_THREAD_SAFE} or {@code GUARDEDBY_VIOLATION}. */
        public String kind() {
            return kind;
        }

        /** Binary class name ({@code a.b.Outer$Inner}). */
        public String className() {
            return className;
        }

        public String method() {
            return method;
        }

        public String descriptor() {
            return descriptor;
        }

        public int line() {
            return line;
        }

        /** The class file's {@code SourceFile} attribute, or "" when absent. */
        public String sourceFile() {
            return sourceFile;
        }

        public String accessPath() {
            return accessPath;
        }

        public String message() {
            return message;
        }

        public List<TraceElement> trace() {
            return trace;
        }

        public List<Conflict> conflicts() {
            return conflicts;
        }

        /** {@code "new"} or {@code "unchanged"} (found in the baseline). */
        public String baseline() {
            return baseline;
        }

        public boolean isBaselined() {
            return "unchanged".equals(baseline);
        }

        /** The in-code suppression that applies, or null. */
        public Suppression suppressed() {
            return suppressed;
        }

        /** Neither baselined nor suppressed: an issue that fails a build. */
        public boolean isNew() {
            return !isBaselined() && suppressed == null;
        }

        /** Source path relative to a source root: {@code a/b/File.java}. */
        public String sourcePath() {
            return Locations.sourcePath(className, sourceFile);
        }

        /** {@code a/b/File.java:LINE}. */
        public String location() {
            return sourcePath() + ":" + line;
        }
    }

    /** An annotation in the code that silences an issue ({@code @SuppressRace}, {@code @SuppressLint}). */
    public static final class Suppression {
        private final String annotation;
        private final String value;
        private final String reason;

        Suppression(Map<String, Object> s) {
            annotation = Json.string(s, "annotation");
            value = Json.string(s, "value");
            reason = s.get("reason") == null ? null : Json.string(s, "reason");
        }

        /** The annotation's simple name. */
        public String annotation() {
            return annotation;
        }

        /** An issue kind, {@code "racer"} or {@code "all"}. */
        public String value() {
            return value;
        }

        /** The reason given in the code, or null. */
        public String reason() {
            return reason;
        }
    }

    /** The issue counts of a run (response field {@code counts}). */
    public static final class Counts {
        private final long total;
        private final long newIssues;
        private final long baselined;
        private final long suppressed;
        private final long staleBaselineEntries;

        Counts(long total, long newIssues, long baselined, long suppressed, long staleBaselineEntries) {
            this.total = total;
            this.newIssues = newIssues;
            this.baselined = baselined;
            this.suppressed = suppressed;
            this.staleBaselineEntries = staleBaselineEntries;
        }

        static Counts from(Map<String, Object> c) {
            return new Counts(Json.number(c, "total"), Json.number(c, "new"), Json.number(c, "baselined"),
                    Json.number(c, "suppressed"), Json.number(c, "stale_baseline_entries"));
        }

        /** An engine that sends no counts knows no baseline or suppression: every issue is new. */
        static Counts allNew(int issues) {
            return new Counts(issues, issues, 0, 0, 0);
        }

        public long total() {
            return total;
        }

        /** Neither baselined nor suppressed: the issues that fail a build. */
        public long newIssues() {
            return newIssues;
        }

        public long baselined() {
            return baselined;
        }

        public long suppressed() {
            return suppressed;
        }

        /** Baseline entries that no longer occur (fixed since); never an error. */
        public long staleBaselineEntries() {
            return staleBaselineEntries;
        }
    }

    /** An input that could not be read. */
    public static final class Diagnostic {
        private final String file;
        private final String message;

        Diagnostic(String file, String message) {
            this.file = file;
            this.message = message;
        }

        public String file() {
            return file;
        }

        public String message() {
            return message;
        }

        @Override
        public String toString() {
            return file + ": " + message;
        }
    }

    /** Counters reported by the engine. */
    public static final class Stats {
        private final long classes;
        private final long methodsAnalysed;
        private final long upstreamClasses;
        private final long upstreamMethods;
        private final long millis;

        Stats(long classes, long methodsAnalysed, long upstreamClasses, long upstreamMethods, long millis) {
            this.classes = classes;
            this.methodsAnalysed = methodsAnalysed;
            this.upstreamClasses = upstreamClasses;
            this.upstreamMethods = upstreamMethods;
            this.millis = millis;
        }

        public long classes() {
            return classes;
        }

        public long methodsAnalysed() {
            return methodsAnalysed;
        }

        public long upstreamClasses() {
            return upstreamClasses;
        }

        public long upstreamMethods() {
            return upstreamMethods;
        }

        public long millis() {
            return millis;
        }
    }
}
