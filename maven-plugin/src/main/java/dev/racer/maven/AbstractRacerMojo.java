package dev.racer.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.project.MavenProjectHelper;
import org.eclipse.aether.RepositorySystem;

import dev.racer.bridge.AnalysisRequest;
import dev.racer.bridge.AnalysisResult;
import dev.racer.bridge.ConsoleReport;
import dev.racer.bridge.Isolation;
import dev.racer.bridge.NativeLibrary;
import dev.racer.bridge.Racer;
import dev.racer.bridge.RacerException;

/**
 * What {@code check} and {@code baseline} share: the parameters that decide what is analysed and
 * reported, the request to the engine, the upstream summaries it reads and the one it writes.
 */
abstract class AbstractRacerMojo extends AbstractMojo {

    /** Skips the analysis. */
    @Parameter(property = "racer.skip", defaultValue = "false")
    private boolean skip;

    /**
     * Fails the build when a class file of this module cannot be read (a corrupt or truncated
     * class file). Unreadable class path entries are only warned about.
     */
    @Parameter(property = "racer.failOnError", defaultValue = "true")
    private boolean failOnError;

    /** Extra annotations treated as {@code @ThreadSafe} (simple or fully-qualified names). */
    @Parameter(property = "racer.threadSafeAnnotations")
    private List<String> threadSafeAnnotations;

    /**
     * Classes never reported on: binary names ({@code a.b.Outer$Inner}) or globs, where {@code *}
     * matches within a package and {@code **} across packages ({@code com.example.generated.*}).
     */
    @Parameter(property = "racer.ignoreClasses")
    private List<String> ignoreClasses;

    /** Package prefixes that are analysed (for summaries) but never reported on. */
    @Parameter(property = "racer.libraryPackages")
    private List<String> libraryPackages;

    /**
     * Include/exclude filter file (JSON rules on class glob, method, field and issue kind; see
     * docs/maven.md). Issues it drops are not reported at all. A file that is set must exist.
     */
    @Parameter(property = "racer.filter")
    private File filter;

    /**
     * The baseline file: issues found in it are reported as baselined and never fail the build.
     * {@code check} uses it only if it exists; {@code racer:baseline} writes it.
     */
    @Parameter(property = "racer.baseline", defaultValue = "${project.basedir}/racer-baseline.json")
    private File baseline;

    /** Where reports and {@code summaries.json} are written. */
    @Parameter(property = "racer.outputDirectory", defaultValue = "${project.build.directory}/racer")
    private File outputDirectory;

    /** The compiled classes to analyse. */
    @Parameter(property = "racer.classesDirectory", defaultValue = "${project.build.outputDirectory}")
    private File classesDirectory;

    /** Worker threads for the analysis; 0 means one per core. */
    @Parameter(property = "racer.threads", defaultValue = "0")
    private int threads;

    /** Only RacerD's own rules, none of racer's extensions (docs/analysis.md); for comparison. */
    @Parameter(property = "racer.racerdCompat", defaultValue = "false")
    private boolean racerdCompat;

    /** Also report a field accessed under two different locks (one method holding {@code mLock}, another the object's monitor). */
    @Parameter(property = "racer.differentLocks", defaultValue = "false")
    private boolean differentLocks;

    /** Report only races on stable paths: accesses through a field their method assigns are left out (fewer reports). */
    @Parameter(property = "racer.highConfidence", defaultValue = "false")
    private boolean highConfidence;

    /** Extensions of the default mode turned off, by name ({@code thread-handoffs}); the others stay on. */
    @Parameter(property = "racer.withoutExtensions")
    private List<String> withoutExtensions;

    /** Memory limit of the engine ({@code 512m}, {@code 2g}): past it the analysis stops with an error. Default: none. */
    @Parameter(property = "racer.maxMemory")
    private String maxMemory;

    /**
     * {@code in-process} (the engine runs in Maven's JVM through JNI) or {@code process} (a child
     * process, so that even a crash of the engine only fails this goal).
     */
    @Parameter(property = "racer.isolation", defaultValue = "in-process")
    private String isolation;

    /**
     * Looks up the {@code racer-summaries} artifact of compile and runtime dependencies that come
     * from a repository (reactor modules are always used).
     */
    @Parameter(property = "racer.dependencySummaries", defaultValue = "true")
    private boolean dependencySummaries;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Component
    private MavenProjectHelper projectHelper;

    @Component
    private RepositorySystem repositorySystem;

    protected final MavenProject project() {
        return project;
    }

    protected final File baselineFile() {
        return baseline;
    }

    protected final File outputDirectory() {
        return outputDirectory;
    }

    /** False (with an info line) when there is nothing to analyse or racer.skip is set. */
    protected final boolean hasWork() {
        if (skip) {
            getLog().info("racer: skipped (racer.skip)");
            return false;
        }
        if ("pom".equals(project.getPackaging())) {
            getLog().info("racer: skipped, nothing to analyse in a module with pom packaging");
            return false;
        }
        if (classesDirectory == null || !classesDirectory.isDirectory()) {
            getLog().info("racer: skipped, no compiled classes in " + classesDirectory);
            return false;
        }
        return true;
    }

    /** A request for this module's classes, with its class path, upstream summaries and settings. */
    protected final AnalysisRequest.Builder request() throws MojoExecutionException {
        if (filter != null && !filter.isFile()) {
            throw new MojoExecutionException("racer: the filter file " + filter + " does not exist (racer.filter)");
        }
        List<File> upstream = new UpstreamSummaries(session, project, repositorySystem, getLog())
                .find(dependencySummaries);
        AnalysisRequest.Builder builder = AnalysisRequest.builder()
                .input(classesDirectory)
                .classpath(classpath())
                .summariesIn(upstream)
                .summariesOut(new File(outputDirectory, UpstreamSummaries.FILE_NAME))
                .threadSafeAnnotations(trimmed(threadSafeAnnotations))
                .ignoreClasses(trimmed(ignoreClasses))
                .libraryPackages(trimmed(libraryPackages))
                .sourcePaths(sourceRoots())
                .filter(filter)
                .racerdCompat(racerdCompat)
                .differentLocks(differentLocks)
                .highConfidence(highConfidence)
                .withoutExtensions(trimmed(withoutExtensions));
        try {
            builder.threads(threads).maxMemory(maxMemory);
        } catch (IllegalArgumentException | RacerException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        return builder;
    }

    /**
     * Runs the engine, logs the statistics line, records this module's summaries for later modules
     * and fails on unreadable class files of this module (unless racer.failOnError=false).
     */
    protected final AnalysisResult analyse(AnalysisRequest request) throws MojoExecutionException {
        if (getLog().isDebugEnabled()) {
            getLog().debug("racer: request " + request.toJson());
        }
        AnalysisResult result;
        long start;
        try {
            Isolation mode = Isolation.parse(isolation);
            long loadStart = System.nanoTime();
            if (mode == Isolation.PROCESS) {
                getLog().debug("racer: engine runs in a child process: " + NativeLibrary.executable());
            } else {
                NativeLibrary.ensureLoaded();
                getLog().debug("racer: native library " + NativeLibrary.loadedFrom() + " ready in "
                        + (System.nanoTime() - loadStart) / 1_000_000L + " ms");
            }
            start = System.nanoTime();
            result = Racer.analyze(request, mode);
        } catch (RacerException e) {
            throw new MojoExecutionException("racer could not analyse " + project.getArtifactId() + ": "
                    + e.getMessage(), e);
        }
        long callMillis = (System.nanoTime() - start) / 1_000_000L;
        AnalysisResult.Stats stats = result.stats();
        getLog().info(String.format(Locale.ROOT,
                "racer %s: %s, %s analysed, %s from %s; engine %d ms, native call %d ms",
                result.toolVersion(), plural(stats.classes(), "class", "classes"),
                plural(stats.methodsAnalysed(), "method", "methods"),
                plural(stats.upstreamClasses(), "upstream class", "upstream classes"),
                plural(request.summariesIn().size(), "summary file", "summary files"),
                stats.millis(), callMillis));
        recordSummaries(request.summariesOut());
        checkDiagnostics(result, console(result, request));
        return result;
    }

    /** The console text of a result, with this module's name, report and source roots. */
    protected final ConsoleReport console(AnalysisResult result, AnalysisRequest request) {
        return ConsoleReport.of(result)
                .project(project.getArtifactId())
                .reportFile(request.preferredReport())
                .sourceRoots(request.sourcePaths(), project.getBasedir());
    }

    private List<File> classpath() throws MojoExecutionException {
        List<String> elements;
        try {
            elements = project.getCompileClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("racer: the compile class path is not resolved: " + e.getMessage(), e);
        }
        List<File> files = new ArrayList<>();
        for (String element : elements) {
            File file = new File(element);
            if (!file.equals(classesDirectory) && file.exists()) {
                files.add(file);
            }
        }
        return files;
    }

    private List<File> sourceRoots() {
        List<File> roots = new ArrayList<>();
        for (String root : project.getCompileSourceRoots()) {
            File dir = new File(root);
            if (dir.isDirectory()) {
                roots.add(dir);
            }
        }
        return roots;
    }

    /** Remembers this module's summaries for later modules of the reactor and attaches them. */
    private void recordSummaries(File summaries) {
        if (summaries == null || !summaries.isFile()) {
            getLog().warn("racer: the engine wrote no summaries file (" + summaries
                    + "); dependent modules will not see this module's summaries");
            return;
        }
        project.setContextValue(UpstreamSummaries.CONTEXT_KEY, summaries);
        boolean attached = false;
        for (org.apache.maven.artifact.Artifact a : project.getAttachedArtifacts()) {
            if (UpstreamSummaries.CLASSIFIER.equals(a.getClassifier())) {
                attached = true;
            }
        }
        if (!attached) {
            projectHelper.attachArtifact(project, UpstreamSummaries.TYPE, UpstreamSummaries.CLASSIFIER, summaries);
        }
    }

    private void checkDiagnostics(AnalysisResult result, ConsoleReport console) throws MojoExecutionException {
        for (String line : console.diagnosticLines()) {
            getLog().warn(line);
        }
        List<AnalysisResult.Diagnostic> own = new ArrayList<>();
        for (AnalysisResult.Diagnostic d : result.diagnostics()) {
            if (isInClassesDirectory(d.file())) {
                own.add(d);
            }
        }
        if (!own.isEmpty() && failOnError) {
            StringBuilder message = new StringBuilder("racer could not read ").append(own.size())
                    .append(own.size() == 1 ? " class file" : " class files").append(" of ")
                    .append(project.getArtifactId()).append(": ");
            for (int i = 0; i < own.size(); i++) {
                message.append(i == 0 ? "" : "; ").append(own.get(i));
            }
            message.append(" (rebuild the module, or set racer.failOnError=false to analyse the rest)");
            throw new MojoExecutionException(message.toString());
        }
    }

    private boolean isInClassesDirectory(String file) {
        File f = new File(file);
        if (!f.isAbsolute()) {
            f = new File(project.getBasedir(), file);
        }
        return f.getAbsoluteFile().toPath().normalize()
                .startsWith(classesDirectory.getAbsoluteFile().toPath().normalize());
    }

    protected static String plural(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** The values of a list parameter, each of which may itself be comma-separated. */
    protected static List<String> trimmed(List<String> values) {
        if (values == null) {
            return Collections.emptyList();
        }
        List<String> out = new ArrayList<>();
        for (String v : values) {
            if (v != null) {
                for (String part : v.split(",")) {
                    if (!part.trim().isEmpty()) {
                        out.add(part.trim());
                    }
                }
            }
        }
        return out;
    }
}
