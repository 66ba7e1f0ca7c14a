package dev.racer.gradle;

import dev.racer.bridge.AnalysisRequest;
import dev.racer.bridge.AnalysisResult;
import dev.racer.bridge.Isolation;
import dev.racer.bridge.NativeLibrary;
import dev.racer.bridge.Racer;
import dev.racer.bridge.RacerException;
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
import org.gradle.api.tasks.Classpath;
import org.gradle.api.tasks.Console;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.InputFile;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.SkipWhenEmpty;

/**
 * What {@link RacerCheckTask} and {@link RacerBaselineTask} share: the classes analysed, their
 * context, the upstream summaries and the analysis settings. Unset settings fall back to the
 * project's {@code racer { }} extension. Nothing here touches the {@code Project} when the task
 * runs (configuration cache).
 */
public abstract class RacerAnalysisTask extends DefaultTask {
    private FileCollection classDirs;
    private FileCollection classpath;
    private FileCollection upstreamSummaries;
    private FileCollection sourceFiles;
    private FileCollection sourceRoots;
    private List<String> threadSafeAnnotations;
    private List<String> ignoreClasses;
    private List<String> libraryPackages;
    private File filterFile;
    private Boolean racerdCompat;
    private Boolean differentLocks;
    private Boolean highConfidence;
    private List<String> withoutExtensions;
    private String maxMemory;
    private String isolation;
    private Integer threads;
    private Boolean quiet;
    private Boolean showProgress;
    private RacerExtension defaults = new RacerExtension();
    private String projectDisplayName = "";
    private File projectDir;

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

    /**
     * Summary files of upstream modules, resolved from the {@code dev.racer.summaries} variant of the
     * compile class path; their build dependencies are the upstream {@code racerCheck} tasks.
     */
    @InputFiles
    @PathSensitive(PathSensitivity.NONE)
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

    @Input
    public List<String> getThreadSafeAnnotations() {
        return threadSafeAnnotations != null ? threadSafeAnnotations : defaults.getThreadSafeAnnotations();
    }

    public void setThreadSafeAnnotations(List<String> names) {
        this.threadSafeAnnotations = new ArrayList<String>(names);
    }

    /** Binary class names or globs ({@code com.example.generated.*}) never reported on. */
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

    /** The include/exclude filter file; a file that is set must exist. */
    @InputFile
    @Optional
    @PathSensitive(PathSensitivity.RELATIVE)
    public File getFilterFile() {
        return filterFile != null ? filterFile : resolve(defaults.getFilter());
    }

    public void setFilterFile(File filterFile) {
        this.filterFile = resolve(filterFile);
    }

    /** Only RacerD's own rules, none of racer's extensions. */
    @Input
    public boolean isRacerdCompat() {
        return racerdCompat != null ? racerdCompat : defaults.isRacerdCompat();
    }

    public void setRacerdCompat(boolean racerdCompat) {
        this.racerdCompat = racerdCompat;
    }

    /** Also reports a field accessed under two different locks. */
    @Input
    public boolean isDifferentLocks() {
        return differentLocks != null ? differentLocks : defaults.isDifferentLocks();
    }

    public void setDifferentLocks(boolean differentLocks) {
        this.differentLocks = differentLocks;
    }

    /** Reports only races on stable paths: accesses through a field their method assigns are left out. */
    @Input
    public boolean isHighConfidence() {
        return highConfidence != null ? highConfidence : defaults.isHighConfidence();
    }

    public void setHighConfidence(boolean highConfidence) {
        this.highConfidence = highConfidence;
    }

    /** Extensions of the default mode turned off, by name ({@code thread-handoffs}). */
    @Input
    public List<String> getWithoutExtensions() {
        return withoutExtensions != null ? withoutExtensions : defaults.getWithoutExtensions();
    }

    public void setWithoutExtensions(List<String> names) {
        this.withoutExtensions = new ArrayList<String>(names);
    }

    /** Engine memory limit such as {@code 2g} or {@code 512m}; null or {@code 0}: unlimited. */
    @Internal
    public String getMaxMemory() {
        return maxMemory != null ? maxMemory : defaults.getMaxMemory();
    }

    public void setMaxMemory(String maxMemory) {
        RacerExtension.checkMemorySize(maxMemory);
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

    /** Engine worker threads; 0 means one per core. Does not change results. */
    @Internal
    public int getThreads() {
        return threads != null ? threads : defaults.getThreads();
    }

    public void setThreads(int threads) {
        this.threads = threads;
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

    /** Wires the project's defaults; called by {@link RacerPlugin}. */
    void useDefaults(RacerExtension extension, String displayName, File dir) {
        this.defaults = extension;
        this.projectDisplayName = displayName;
        this.projectDir = dir;
    }

    RacerExtension defaults() {
        return defaults;
    }

    String projectDisplayName() {
        return projectDisplayName;
    }

    File projectDir() {
        return projectDir;
    }

    /** A path from the build script, resolved against the project directory. */
    File resolve(File file) {
        if (file == null || file.isAbsolute() || projectDir == null) {
            return file;
        }
        return new File(projectDir, file.getPath());
    }

    /** The source roots that exist, for console locations and report snippets. */
    List<File> existingSourceRoots() {
        return existing(sourceRoots == null ? null : sourceRoots.getFiles());
    }

    /** A request with the inputs, context, upstream summaries and analysis settings filled in. */
    AnalysisRequest.Builder analysisRequest() {
        List<File> inputs = existing(classDirs == null ? null : classDirs.getFiles());
        Set<File> inputSet = new LinkedHashSet<File>(inputs);
        List<File> context = new ArrayList<File>();
        for (File f : existing(classpath == null ? null : classpath.getFiles())) {
            if (!inputSet.contains(f)) {
                context.add(f);
            }
        }
        List<File> summaries = existing(upstreamSummaries == null ? null : upstreamSummaries.getFiles());
        if (isShowProgress()) {
            getLogger().lifecycle("racer: analysing {} class director{} of {} ({} classpath entries, {} upstream summar{})",
                    inputs.size(), inputs.size() == 1 ? "y" : "ies", projectDisplayName, context.size(),
                    summaries.size(), summaries.size() == 1 ? "y" : "ies");
        }
        return AnalysisRequest.builder()
                .inputs(inputs)
                .classpath(context)
                .summariesIn(summaries)
                .threadSafeAnnotations(getThreadSafeAnnotations())
                .ignoreClasses(getIgnoreClasses())
                .libraryPackages(getLibraryPackages())
                .filter(getFilterFile())
                .racerdCompat(isRacerdCompat())
                .differentLocks(isDifferentLocks())
                .highConfidence(isHighConfidence())
                .withoutExtensions(getWithoutExtensions())
                .maxMemory(getMaxMemory())
                .threads(getThreads())
                .sourcePaths(existingSourceRoots());
    }

    /**
     * Runs the engine in-process or in a child process ({@link #getIsolation()}); engine and
     * class-loading failures become one-line task failures.
     */
    AnalysisResult run(AnalysisRequest request) {
        Logger log = getLogger();
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
            return Racer.analyze(request, isolation);
        } catch (RacerException e) {
            throw new GradleException("racer: analysis of " + projectDisplayName + " failed: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new GradleException("racer: cannot load the plugin's classes or native library (" + e
                    + "); if the plugin jar was replaced while a Gradle daemon was running, stop it with"
                    + " `gradle --stop` and retry", e);
        }
    }

    static List<File> existing(Collection<File> files) {
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
