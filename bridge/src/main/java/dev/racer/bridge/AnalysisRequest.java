package dev.racer.bridge;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One analysis request (docs/bridge.md, {@code request_version} 2). Build it with {@link #builder()}.
 * Files are sent as absolute paths: pass files that are absolute already when the JVM's working
 * directory is not the project's (a Gradle daemon).
 */
public final class AnalysisRequest {
    /** The request contract version this bridge speaks. */
    public static final int REQUEST_VERSION = 2;

    private final List<File> inputs;
    private final List<File> classpath;
    private final List<File> summariesIn;
    private final File summariesOut;
    private final List<String> threadSafeAnnotations;
    private final List<String> ignoreClasses;
    private final List<String> libraryPackages;
    private final int threads;
    private final long maxMemoryMb;
    private final Map<ReportFormat, File> reports;
    private final List<File> sourcePaths;
    private final File baseline;
    private final File writeBaseline;
    private final File filter;
    private final Integer consoleLimit;
    private final boolean racerdCompat;
    private final boolean differentLocks;
    private final boolean highConfidence;
    private final List<String> withoutExtensions;

    private AnalysisRequest(Builder b) {
        inputs = copy(b.inputs);
        classpath = copy(b.classpath);
        summariesIn = copy(b.summariesIn);
        summariesOut = b.summariesOut;
        threadSafeAnnotations = copy(b.threadSafeAnnotations);
        ignoreClasses = copy(b.ignoreClasses);
        libraryPackages = copy(b.libraryPackages);
        threads = b.threads;
        maxMemoryMb = b.maxMemoryMb;
        reports = Collections.unmodifiableMap(new EnumMap<ReportFormat, File>(b.reports));
        sourcePaths = copy(b.sourcePaths);
        baseline = b.baseline;
        writeBaseline = b.writeBaseline;
        filter = b.filter;
        consoleLimit = b.consoleLimit;
        racerdCompat = b.racerdCompat;
        differentLocks = b.differentLocks;
        highConfidence = b.highConfidence;
        withoutExtensions = copy(b.withoutExtensions);
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<File> inputs() {
        return inputs;
    }

    public List<File> classpath() {
        return classpath;
    }

    public List<File> summariesIn() {
        return summariesIn;
    }

    /** May be null. */
    public File summariesOut() {
        return summariesOut;
    }

    public List<String> threadSafeAnnotations() {
        return threadSafeAnnotations;
    }

    public List<String> ignoreClasses() {
        return ignoreClasses;
    }

    public List<String> libraryPackages() {
        return libraryPackages;
    }

    public int threads() {
        return threads;
    }

    /** Memory limit of the engine in MiB; 0 means none. */
    public long maxMemoryMb() {
        return maxMemoryMb;
    }

    /** The report files requested, by format (iteration order: text, json, sarif, html). */
    public Map<ReportFormat, File> reports() {
        return reports;
    }

    public List<File> sourcePaths() {
        return sourcePaths;
    }

    /** Issues found in this baseline file are marked baselined (may be null). */
    public File baseline() {
        return baseline;
    }

    /** Where the current issues are written as a baseline file (may be null). */
    public File writeBaseline() {
        return writeBaseline;
    }

    /** Include/exclude filter file (may be null). */
    public File filter() {
        return filter;
    }

    /** How many issues the console text shows in full; null: the engine's default. */
    public Integer consoleLimit() {
        return consoleLimit;
    }

    /** Restricts the analysis to RacerD's own rules (no extensions). */
    public boolean racerdCompat() {
        return racerdCompat;
    }

    /** Also reports a field accessed under two different locks. */
    public boolean differentLocks() {
        return differentLocks;
    }

    /** Reports only races on stable paths (the high-confidence mode). */
    public boolean highConfidence() {
        return highConfidence;
    }

    /** Extensions of the default mode turned off, by name ({@code thread-handoffs}). */
    public List<String> withoutExtensions() {
        return withoutExtensions;
    }

    /**
     * The report most useful to a person, for failure messages: HTML, else text, else SARIF, else
     * JSON; null when no report is requested.
     */
    public File preferredReport() {
        for (ReportFormat f : new ReportFormat[] {ReportFormat.HTML, ReportFormat.TEXT, ReportFormat.SARIF, ReportFormat.JSON}) {
            if (reports.containsKey(f)) {
                return reports.get(f);
            }
        }
        return null;
    }

    /** The request as the engine's JSON. */
    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<String, Object>();
        root.put("request_version", REQUEST_VERSION);
        root.put("inputs", paths(inputs));
        root.put("classpath", paths(classpath));
        root.put("summaries_in", paths(summariesIn));
        if (summariesOut != null) {
            root.put("summaries_out", summariesOut.getAbsolutePath());
        }
        Map<String, Object> options = new LinkedHashMap<String, Object>();
        options.put("thread_safe_annotations", threadSafeAnnotations);
        options.put("ignore_classes", ignoreClasses);
        options.put("library_packages", libraryPackages);
        options.put("threads", threads);
        // Defaults are left out, so that a request without the newer settings stays minimal.
        if (racerdCompat) {
            options.put("racerd_compat", true);
        }
        if (differentLocks) {
            options.put("different_locks", true);
        }
        if (highConfidence) {
            options.put("high_confidence", true);
        }
        if (maxMemoryMb > 0) {
            options.put("max_memory_mb", maxMemoryMb);
        }
        if (!withoutExtensions.isEmpty()) {
            options.put("without_extensions", withoutExtensions);
        }
        root.put("options", options);
        Map<String, Object> reportFiles = new LinkedHashMap<String, Object>();
        for (Map.Entry<ReportFormat, File> e : reports.entrySet()) {
            reportFiles.put(e.getKey().key(), e.getValue().getAbsolutePath());
        }
        root.put("reports", reportFiles);
        root.put("source_paths", paths(sourcePaths));
        putPath(root, "baseline", baseline);
        putPath(root, "write_baseline", writeBaseline);
        putPath(root, "filter", filter);
        if (consoleLimit != null) {
            root.put("console_limit", consoleLimit);
        }
        return Json.write(root);
    }

    @Override
    public String toString() {
        return toJson();
    }

    private static void putPath(Map<String, Object> object, String key, File file) {
        if (file != null) {
            object.put(key, file.getAbsolutePath());
        }
    }

    private static List<String> paths(List<File> files) {
        List<String> out = new ArrayList<String>(files.size());
        for (File f : files) {
            out.add(f.getAbsolutePath());
        }
        return out;
    }

    private static <T> List<T> copy(List<T> list) {
        return Collections.unmodifiableList(new ArrayList<T>(list));
    }

    /** Builder; every method returns {@code this}. Collections are appended to, nulls ignored. */
    public static final class Builder {
        private final List<File> inputs = new ArrayList<File>();
        private final List<File> classpath = new ArrayList<File>();
        private final List<File> summariesIn = new ArrayList<File>();
        private File summariesOut;
        private final List<String> threadSafeAnnotations = new ArrayList<String>();
        private final List<String> ignoreClasses = new ArrayList<String>();
        private final List<String> libraryPackages = new ArrayList<String>();
        private int threads;
        private long maxMemoryMb;
        private final Map<ReportFormat, File> reports = new EnumMap<ReportFormat, File>(ReportFormat.class);
        private final List<File> sourcePaths = new ArrayList<File>();
        private File baseline;
        private File writeBaseline;
        private File filter;
        private Integer consoleLimit;
        private boolean racerdCompat;
        private boolean differentLocks;
        private boolean highConfidence;
        private final List<String> withoutExtensions = new ArrayList<String>();

        private Builder() {
        }

        /** A class directory, jar or single class file to analyse and report on. */
        public Builder input(File file) {
            add(inputs, file);
            return this;
        }

        public Builder inputs(Collection<File> files) {
            addAll(inputs, files);
            return this;
        }

        /** Directories/jars used only as context (hierarchy, annotations, field flags). */
        public Builder classpath(Collection<File> files) {
            addAll(classpath, files);
            return this;
        }

        public Builder classpathEntry(File file) {
            add(classpath, file);
            return this;
        }

        /** Summary files written by upstream modules' analyses. */
        public Builder summariesIn(Collection<File> files) {
            addAll(summariesIn, files);
            return this;
        }

        public Builder summaryIn(File file) {
            add(summariesIn, file);
            return this;
        }

        /** Where to write this module's summaries (null: not written). */
        public Builder summariesOut(File file) {
            summariesOut = file;
            return this;
        }

        /** Extra annotation names treated as {@code @ThreadSafe} (simple or qualified). */
        public Builder threadSafeAnnotations(Collection<String> names) {
            addAll(threadSafeAnnotations, names);
            return this;
        }

        /** Binary class names ({@code a.b.Outer$Inner}) or globs ({@code a.b.generated.*}) never reported on. */
        public Builder ignoreClasses(Collection<String> names) {
            addAll(ignoreClasses, names);
            return this;
        }

        /** Package prefixes analysed but never reported on. */
        public Builder libraryPackages(Collection<String> prefixes) {
            addAll(libraryPackages, prefixes);
            return this;
        }

        /** Worker threads; 0 (the default) means one per core. */
        public Builder threads(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("racer: threads must be >= 0, got " + count);
            }
            threads = count;
            return this;
        }

        /** Stops the analysis with an error when the engine holds more than this many MiB; 0 (the default): no limit. */
        public Builder maxMemoryMb(long megabytes) {
            if (megabytes < 0) {
                throw new IllegalArgumentException("racer: the memory limit must be >= 0, got " + megabytes);
            }
            maxMemoryMb = megabytes;
            return this;
        }

        /**
         * The memory limit as a build setting writes it: {@code 512m}, {@code 2g}, {@code 4096k} or
         * bytes; null or empty: no limit.
         */
        public Builder maxMemory(String size) {
            if (size == null || size.trim().isEmpty()) {
                return maxMemoryMb(0);
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)\\s*([0-9]{1,15})\\s*([kmgt]?)b?\\s*").matcher(size);
            if (!m.matches()) {
                throw new RacerException("racer: invalid memory size '" + size + "' (expected a number with an optional unit k, m, g: 512m, 2g)");
            }
            long n = Long.parseLong(m.group(1));
            int shift = "bkmgt".indexOf(m.group(2).isEmpty() ? "b" : m.group(2).toLowerCase(java.util.Locale.ROOT)) * 10;
            long bytes = n << shift;
            if (shift > 0 && (bytes >> shift) != n) {
                throw new RacerException("racer: memory size '" + size + "' is too large");
            }
            // Whole MiB, rounded up so that a small limit never means "none".
            return maxMemoryMb((bytes + (1 << 20) - 1) >> 20);
        }

        /** Requests a report file (null removes the format). */
        public Builder report(ReportFormat format, File file) {
            if (file == null) {
                reports.remove(format);
            } else {
                reports.put(format, file);
            }
            return this;
        }

        /** Source roots, for snippets in text/HTML reports and relative locations in SARIF. */
        public Builder sourcePaths(Collection<File> roots) {
            addAll(sourcePaths, roots);
            return this;
        }

        public Builder sourcePath(File root) {
            add(sourcePaths, root);
            return this;
        }

        /** Issues found in this baseline file are reported as baselined and do not count as new (null: none). */
        public Builder baseline(File file) {
            baseline = file;
            return this;
        }

        /** Writes the issues found as a baseline file (null: not written). */
        public Builder writeBaseline(File file) {
            writeBaseline = file;
            return this;
        }

        /** An include/exclude filter file (null: none). */
        public Builder filter(File file) {
            filter = file;
            return this;
        }

        /** How many issues the console text shows in full (null: the engine's default). */
        public Builder consoleLimit(Integer limit) {
            if (limit != null && limit < 0) {
                throw new IllegalArgumentException("racer: consoleLimit must be >= 0, got " + limit);
            }
            consoleLimit = limit;
            return this;
        }

        /** Only RacerD's own rules, none of racer's extensions. */
        public Builder racerdCompat(boolean compat) {
            racerdCompat = compat;
            return this;
        }

        /**
         * Also report a field accessed under two different locks (one method holding {@code
         * mLock}, another the object's monitor); ignored with {@link #racerdCompat}.
         */
        public Builder differentLocks(boolean report) {
            differentLocks = report;
            return this;
        }

        /**
         * The high-confidence mode: leaves out accesses through a field their method assigns,
         * which may reach different objects at different times (fewer reports, some true races
         * among those left out).
         */
        public Builder highConfidence(boolean on) {
            highConfidence = on;
            return this;
        }

        /**
         * Turns these extensions of the default mode off, by name ({@code thread-handoffs}; the
         * engine rejects an unknown name); the others stay on.
         */
        public Builder withoutExtensions(Collection<String> names) {
            addAll(withoutExtensions, names);
            return this;
        }

        public AnalysisRequest build() {
            return new AnalysisRequest(this);
        }

        private static <T> void add(List<T> list, T item) {
            if (item != null) {
                list.add(item);
            }
        }

        private static <T> void addAll(List<T> list, Collection<? extends T> items) {
            if (items != null) {
                for (T item : items) {
                    add(list, item);
                }
            }
        }
    }
}
