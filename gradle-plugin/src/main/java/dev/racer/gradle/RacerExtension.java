package dev.racer.gradle;

import dev.racer.bridge.AnalysisRequest;
import dev.racer.bridge.RacerException;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.gradle.api.Action;

/**
 * The {@code racer { }} block: project-wide defaults for every {@link RacerCheckTask}.
 *
 * <pre>
 * racer {
 *     ignoreFailures = false          // true: report races without failing the build
 *     maxIssues = 0                   // fail only when more races than this are found
 *     threadSafeAnnotations = ['com.example.Concurrent']
 *     ignoreClasses = ['com.example.Legacy$Inner', 'com.example.generated.*']   // names or globs
 *     baseline = file('racer-baseline.json')   // issues in it do not fail the build; racerBaseline writes it
 *     filter = file('racer-filter.json')       // include/exclude rules on class, method, field, kind
 *     consoleLimit = 20               // issues shown in full on the console (default: the engine's, 20)
 *     racerdCompat = false            // true: RacerD's own rules only, none of racer's extensions
 *     differentLocks = false          // true: also report a field accessed under two different locks
 *     highConfidence = false          // true: report only races on stable paths (fewer reports)
 *     withoutExtensions = []          // extensions of the default mode turned off ('thread-handoffs')
 *     libraryPackages = ['com.example.vendored']
 *     reportsDir = file("$buildDir/reports/racer")
 *     reports { text = true; json = true; sarif = true; html = true }
 *     threads = 0                     // 0: one per core
 *     maxMemory = '2g'                // stop with an error past this much engine memory (default: no limit)
 *     isolation = 'process'           // run the engine in a child process (default: 'in-process')
 *     quiet = false                   // true: print only the summary line
 *     showProgress = false            // true: log what is analysed
 *     runOnCheck = true               // false: `check` does not run racerCheck
 *     androidVariant = 'release'      // Android modules: the variant whose compile tasks are analysed
 * }
 * </pre>
 */
public class RacerExtension {
    private boolean ignoreFailures;
    private int maxIssues;
    private List<String> threadSafeAnnotations = new ArrayList<String>();
    private List<String> ignoreClasses = new ArrayList<String>();
    private List<String> libraryPackages = new ArrayList<String>();
    private File reportsDir;
    private int threads;
    private String maxMemory;
    private String isolation = "in-process";
    private boolean quiet;
    private boolean showProgress;
    private boolean runOnCheck = true;
    private String androidVariant = "release";
    private File baseline;
    private File filter;
    private Integer consoleLimit;
    private boolean racerdCompat;
    private boolean differentLocks;
    private boolean highConfidence;
    private List<String> withoutExtensions = new ArrayList<String>();
    private final Reports reports = new Reports();

    public boolean isIgnoreFailures() {
        return ignoreFailures;
    }

    public void setIgnoreFailures(boolean ignoreFailures) {
        this.ignoreFailures = ignoreFailures;
    }

    public int getMaxIssues() {
        return maxIssues;
    }

    public void setMaxIssues(int maxIssues) {
        this.maxIssues = maxIssues;
    }

    public List<String> getThreadSafeAnnotations() {
        return threadSafeAnnotations;
    }

    public void setThreadSafeAnnotations(List<String> names) {
        this.threadSafeAnnotations = new ArrayList<String>(names);
    }

    public List<String> getIgnoreClasses() {
        return ignoreClasses;
    }

    public void setIgnoreClasses(List<String> names) {
        this.ignoreClasses = new ArrayList<String>(names);
    }

    public List<String> getLibraryPackages() {
        return libraryPackages;
    }

    public void setLibraryPackages(List<String> prefixes) {
        this.libraryPackages = new ArrayList<String>(prefixes);
    }

    /** Null means {@code <buildDir>/reports/racer}. */
    public File getReportsDir() {
        return reportsDir;
    }

    public void setReportsDir(File reportsDir) {
        this.reportsDir = reportsDir;
    }

    public int getThreads() {
        return threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    /** {@code in-process} (JNI, the default) or {@code process} (a child process: a crash only fails the task). */
    public String getIsolation() {
        return isolation;
    }

    public void setIsolation(String isolation) {
        this.isolation = isolation;
    }

    public boolean isQuiet() {
        return quiet;
    }

    public void setQuiet(boolean quiet) {
        this.quiet = quiet;
    }

    public boolean isShowProgress() {
        return showProgress;
    }

    public void setShowProgress(boolean showProgress) {
        this.showProgress = showProgress;
    }

    public boolean isRunOnCheck() {
        return runOnCheck;
    }

    public void setRunOnCheck(boolean runOnCheck) {
        this.runOnCheck = runOnCheck;
    }

    /** Android modules: the variant analysed ({@code compile<Variant>JavaWithJavac}, {@code compile<Variant>Kotlin}). */
    public String getAndroidVariant() {
        return androidVariant;
    }

    public void setAndroidVariant(String androidVariant) {
        this.androidVariant = androidVariant;
    }

    /** Relative paths are resolved against the project directory; null: no baseline. */
    public File getBaseline() {
        return baseline;
    }

    public void setBaseline(File baseline) {
        this.baseline = baseline;
    }

    /** Relative paths are resolved against the project directory; null: no filter. */
    public File getFilter() {
        return filter;
    }

    public void setFilter(File filter) {
        this.filter = filter;
    }

    /** Null: the engine's default. */
    public Integer getConsoleLimit() {
        return consoleLimit;
    }

    public void setConsoleLimit(Integer consoleLimit) {
        if (consoleLimit != null && consoleLimit < 0) {
            throw new IllegalArgumentException("racer: consoleLimit must be >= 0, got " + consoleLimit);
        }
        this.consoleLimit = consoleLimit;
    }

    public boolean isRacerdCompat() {
        return racerdCompat;
    }

    public void setRacerdCompat(boolean racerdCompat) {
        this.racerdCompat = racerdCompat;
    }

    public boolean isDifferentLocks() {
        return differentLocks;
    }

    public void setDifferentLocks(boolean differentLocks) {
        this.differentLocks = differentLocks;
    }

    /** The high-confidence mode: leave out accesses through a field their method assigns. */
    public boolean isHighConfidence() {
        return highConfidence;
    }

    public void setHighConfidence(boolean highConfidence) {
        this.highConfidence = highConfidence;
    }

    /** Extensions of the default mode turned off, by name ({@code thread-handoffs}). */
    public List<String> getWithoutExtensions() {
        return withoutExtensions;
    }

    public void setWithoutExtensions(List<String> names) {
        this.withoutExtensions = new ArrayList<String>(names);
    }

    /** Engine memory limit ({@code 512m}, {@code 2g}); null or empty: none. */
    public String getMaxMemory() {
        return maxMemory;
    }

    public void setMaxMemory(String maxMemory) {
        checkMemorySize(maxMemory);
        this.maxMemory = maxMemory;
    }

    /** Fails early, at configuration time, on a size the engine would refuse. */
    static void checkMemorySize(String size) {
        try {
            AnalysisRequest.builder().maxMemory(size);
        } catch (RacerException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public Reports getReports() {
        return reports;
    }

    /** {@code reports { html = false }}. */
    public void reports(Action<? super Reports> action) {
        action.execute(reports);
    }

    /** Which report files to write into {@code reportsDir} ({@code racer.txt}, ...). All on by default. */
    public static class Reports {
        private boolean text = true;
        private boolean json = true;
        private boolean sarif = true;
        private boolean html = true;

        public boolean isText() {
            return text;
        }

        public void setText(boolean text) {
            this.text = text;
        }

        public boolean isJson() {
            return json;
        }

        public void setJson(boolean json) {
            this.json = json;
        }

        public boolean isSarif() {
            return sarif;
        }

        public void setSarif(boolean sarif) {
            this.sarif = sarif;
        }

        public boolean isHtml() {
            return html;
        }

        public void setHtml(boolean html) {
            this.html = html;
        }
    }
}
