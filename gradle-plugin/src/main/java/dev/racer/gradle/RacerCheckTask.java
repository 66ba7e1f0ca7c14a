package dev.racer.gradle;

import dev.racer.bridge.AnalysisRequest;
import dev.racer.bridge.AnalysisResult;
import dev.racer.bridge.ConsoleReport;
import dev.racer.bridge.Isolation;
import dev.racer.bridge.NativeLibrary;
import dev.racer.bridge.Racer;
import dev.racer.bridge.RacerException;
import dev.racer.bridge.ReportFormat;
import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.file.FileCollection;
import org.gradle.api.logging.Logger;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.Classpath;
import org.gradle.api.tasks.Console;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputFile;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.SkipWhenEmpty;
import org.gradle.api.tasks.TaskAction;
import org.gradle.api.tasks.VerificationTask;

/**
 * Runs the racer engine in-process on a module's class directories and writes its summary file
 * (for downstream modules) and reports. Unset settings fall back to the project's {@code racer { }}
 * extension.
 */
@CacheableTask
public class RacerCheckTask extends DefaultTask implements VerificationTask {
    private FileCollection classDirs;
    private FileCollection classpath;
    private FileCollection upstreamSummaries;
    private FileCollection sourceFiles;
    private FileCollection sourceRoots;
    private File summaryFile;
    private File reportsDir;
    private Boolean ignoreFailures;
    private Boolean ignoreFailuresProperty;
    private Integer maxIssues;
    private List<String> threadSafeAnnotations;
    private List<String> ignoreClasses;
    private List<String> libraryPackages;
    private Integer threads;
    private String maxMemory;
    private String isolation;
    private Boolean quiet;
    private Boolean showProgress;
    private Boolean textReport;
    private Boolean jsonReport;
    private Boolean sarifReport;
    private Boolean htmlReport;
    private RacerExtension defaults = new RacerExtension();
    private String projectDisplayName = "";
    private File projectDir;
    private File defaultReportsDir;

    /** Class directories to analyse and report on (main Java and Kotlin output). */
    @InputFiles
    @SkipWhenEmpty
    @PathSensitive(PathSensitivity.RELATIVE)
    public FileCollection getClassDirs() {
        return classDirs;
    }

    public void setClassDirs(FileCollection classDirs) {
        this.classDirs = classDirs;
    }

    /** Context only: class hierarchy, annotations and field flags of dependencies. */
    @Classpath
    public FileCollection getClasspath() {
        return classpath;
    }

    public void setClasspath(FileCollection classpath) {
        this.classpath = classpath;
    }

    /** Summary files of upstream modules ({@code build/racer/summaries.json} of project dependencies). */
    @InputFiles
    @PathSensitive(PathSensitivity.RELATIVE)
    public FileCollection getUpstreamSummaries() {
        return upstreamSummaries;
    }

    public void setUpstreamSummaries(FileCollection upstreamSummaries) {
        this.upstreamSummaries = upstreamSummaries;
    }

    /** The sources shown in report snippets. */
    @InputFiles
    @Optional
    @PathSensitive(PathSensitivity.RELATIVE)
    public FileCollection getSourceFiles() {
        return sourceFiles;
    }

    public void setSourceFiles(FileCollection sourceFiles) {
        this.sourceFiles = sourceFiles;
    }

    /** The source root directories (tracked through {@link #getSourceFiles()}). */
    @Internal
    public FileCollection getSourceRoots() {
        return sourceRoots;
    }

    public void setSourceRoots(FileCollection sourceRoots) {
        this.sourceRoots = sourceRoots;
    }

    /** This module's summaries, read by downstream modules. */
    @OutputFile
    public File getSummaryFile() {
        return summaryFile;
    }

    public void setSummaryFile(File summaryFile) {
        this.summaryFile = summaryFile;
    }

    @Internal
    public File getReportsDir() {
        if (reportsDir != null) {
            return reportsDir;
        }
        if (defaults.getReportsDir() != null) {
            return resolve(defaults.getReportsDir());
        }
        return defaultReportsDir;
    }

    public void setReportsDir(File reportsDir) {
        this.reportsDir = resolve(reportsDir);
    }

    @Override
    @Input
    public boolean getIgnoreFailures() {
        if (ignoreFailures != null) {
            return ignoreFailures;
        }
        return ignoreFailuresProperty != null ? ignoreFailuresProperty : defaults.isIgnoreFailures();
    }

    @Override
    public void setIgnoreFailures(boolean ignoreFailures) {
        this.ignoreFailures = ignoreFailures;
    }

    /** The build fails when more races than this are found (default 0). */
    @Input
    public int getMaxIssues() {
        return maxIssues != null ? maxIssues : defaults.getMaxIssues();
    }

    public void setMaxIssues(int maxIssues) {
        this.maxIssues = maxIssues;
    }

    @Input
    public List<String> getThreadSafeAnnotations() {
        return threadSafeAnnotations != null ? threadSafeAnnotations : defaults.getThreadSafeAnnotations();
    }

    public void setThreadSafeAnnotations(List<String> names) {
        this.threadSafeAnnotations = new ArrayList<String>(names);
    }

    @Input
    public List<String> getIgnoreClasses() {
        return ignoreClasses != null ? ignoreClasses : defaults.getIgnoreClasses();
    }

    public void setIgnoreClasses(List<String> names) {
        this.ignoreClasses = new ArrayList<String>(names);
    }

    @Input
    public List<String> getLibraryPackages() {
        return libraryPackages != null ? libraryPackages : defaults.getLibraryPackages();
    }

    public void setLibraryPackages(List<String> prefixes) {
        this.libraryPackages = new ArrayList<String>(prefixes);
    }

    /** Engine worker threads; 0 means one per core. Does not change results. */
    @Internal
    public int getThreads() {
        return threads != null ? threads : defaults.getThreads();
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    /** Memory limit of the engine ({@code 512m}, {@code 2g}); null: none. Does not change results. */
    @Internal
    public String getMaxMemory() {
        return maxMemory != null ? maxMemory : defaults.getMaxMemory();
    }

    public void setMaxMemory(String maxMemory) {
        this.maxMemory = maxMemory;
    }

    /** {@code in-process} or {@code process}. Does not change results. */
    @Internal
    public String getIsolation() {
        return isolation != null ? isolation : defaults.getIsolation();
    }

    public void setIsolation(String isolation) {
        this.isolation = isolation;
    }

    @Console
    public boolean isQuiet() {
        return quiet != null ? quiet : defaults.isQuiet();
    }

    public void setQuiet(boolean quiet) {
        this.quiet = quiet;
    }

    @Console
    public boolean isShowProgress() {
        return showProgress != null ? showProgress : defaults.isShowProgress();
    }

    public void setShowProgress(boolean showProgress) {
        this.showProgress = showProgress;
    }

    public void setTextReportEnabled(boolean enabled) {
        textReport = enabled;
    }

    public void setJsonReportEnabled(boolean enabled) {
        jsonReport = enabled;
    }

    public void setSarifReportEnabled(boolean enabled) {
        sarifReport = enabled;
    }

    public void setHtmlReportEnabled(boolean enabled) {
        htmlReport = enabled;
    }

    /** {@code <reportsDir>/racer.txt}, or null when the text report is off. */
    @OutputFile
    @Optional
    public File getTextReportFile() {
        return report(ReportFormat.TEXT, textReport, defaults.getReports().isText());
    }

    @OutputFile
    @Optional
    public File getJsonReportFile() {
        return report(ReportFormat.JSON, jsonReport, defaults.getReports().isJson());
    }

    @OutputFile
    @Optional
    public File getSarifReportFile() {
        return report(ReportFormat.SARIF, sarifReport, defaults.getReports().isSarif());
    }

    @OutputFile
    @Optional
    public File getHtmlReportFile() {
        return report(ReportFormat.HTML, htmlReport, defaults.getReports().isHtml());
    }

    /** The Gradle property {@code racer.ignoreFailures}, which wins over the extension. */
    void setIgnoreFailuresProperty(Boolean value) {
        this.ignoreFailuresProperty = value;
    }

    /** Wires the project's defaults; called by {@link RacerPlugin}. */
    void useDefaults(RacerExtension extension, String displayName, File dir, File reports) {
        this.defaults = extension;
        this.projectDisplayName = displayName;
        this.projectDir = dir;
        this.defaultReportsDir = reports;
    }

    private File report(ReportFormat format, Boolean own, boolean fallback) {
        boolean enabled = own != null ? own : fallback;
        File dir = getReportsDir();
        return enabled && dir != null ? new File(dir, "racer." + format.extension()) : null;
    }

    private File resolve(File file) {
        if (file == null || file.isAbsolute() || projectDir == null) {
            return file;
        }
        return new File(projectDir, file.getPath());
    }

    @TaskAction
    public void analyze() {
        Logger log = getLogger();
        List<File> inputs = existing(classDirs == null ? null : classDirs.getFiles());
        Set<File> inputSet = new LinkedHashSet<File>(inputs);
        List<File> context = new ArrayList<File>();
        for (File f : existing(classpath == null ? null : classpath.getFiles())) {
            if (!inputSet.contains(f)) {
                context.add(f);
            }
        }
        List<File> summaries = existing(upstreamSummaries == null ? null : upstreamSummaries.getFiles());
        List<File> roots = existing(sourceRoots == null ? null : sourceRoots.getFiles());

        AnalysisRequest.Builder builder = AnalysisRequest.builder()
                .inputs(inputs)
                .classpath(context)
                .summariesIn(summaries)
                .summariesOut(getSummaryFile())
                .threadSafeAnnotations(getThreadSafeAnnotations())
                .ignoreClasses(getIgnoreClasses())
                .libraryPackages(getLibraryPackages())
                .threads(getThreads())
                .maxMemory(getMaxMemory())
                .sourcePaths(roots)
                .report(ReportFormat.TEXT, getTextReportFile())
                .report(ReportFormat.JSON, getJsonReportFile())
                .report(ReportFormat.SARIF, getSarifReportFile())
                .report(ReportFormat.HTML, getHtmlReportFile());
        AnalysisRequest request = builder.build();
        deleteDisabledReports(request);
        if (isShowProgress()) {
            log.lifecycle("racer: analysing {} class director{} of {} ({} classpath entries, {} upstream summar{})",
                    inputs.size(), inputs.size() == 1 ? "y" : "ies", projectDisplayName, context.size(),
                    summaries.size(), summaries.size() == 1 ? "y" : "ies");
        }

        AnalysisResult result;
        try {
            Isolation isolation = Isolation.parse(getIsolation());
            if (log.isInfoEnabled()) {
                if (isolation == Isolation.PROCESS) {
                    log.info("racer: engine runs in a child process: {}", NativeLibrary.executable());
                } else {
                    log.info("racer: engine {} loaded from {}", Racer.engineVersion(), NativeLibrary.loadedFrom());
                }
                log.info("racer: request {}", request.toJson());
            }
            result = Racer.analyze(request, isolation);
        } catch (RacerException e) {
            throw new GradleException("racer: analysis of " + projectDisplayName + " failed: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new GradleException("racer: cannot load the plugin's classes or native library (" + e
                    + "); if the plugin jar was replaced while a Gradle daemon was running, stop it with"
                    + " `gradle --stop` and retry", e);
        }

        File report = request.preferredReport();
        ConsoleReport console = ConsoleReport.of(result)
                .project(projectDisplayName)
                .reportFile(report)
                .sourceRoots(roots, projectDir)
                .traces(!isQuiet());
        if (!isQuiet()) {
            for (String line : console.issueLines()) {
                log.warn(line);
            }
        }
        for (String line : console.diagnosticLines()) {
            log.warn(line);
        }
        int count = result.issues().size();
        if (count == 0) {
            if (isShowProgress()) {
                log.lifecycle(console.summary());
            } else {
                log.info(console.summary());
            }
            return;
        }
        log.warn(console.summary());
        int allowed = getMaxIssues();
        if (count > allowed) {
            String message = console.failureMessage(allowed);
            if (getIgnoreFailures()) {
                log.warn(message + " (ignoreFailures is set)");
            } else {
                throw new GradleException(message);
            }
        }
    }

    /** Removes report files of formats that are switched off, so that no stale report is left behind. */
    private void deleteDisabledReports(AnalysisRequest request) {
        File dir = getReportsDir();
        if (dir == null) {
            return;
        }
        for (ReportFormat format : ReportFormat.values()) {
            File stale = new File(dir, "racer." + format.extension());
            if (!request.reports().containsKey(format) && stale.isFile() && !stale.delete()) {
                getLogger().warn("racer: cannot delete the stale report {}", stale);
            }
        }
    }

    private static List<File> existing(Collection<File> files) {
        List<File> out = new ArrayList<File>();
        if (files != null) {
            for (File f : files) {
                if (f.exists()) {
                    out.add(f);
                }
            }
        }
        return out;
    }
}
