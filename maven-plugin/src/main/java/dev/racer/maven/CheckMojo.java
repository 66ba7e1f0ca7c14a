package dev.racer.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
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
import dev.racer.bridge.ReportFormat;

/**
 * Analyses the module's compiled classes for data races and fails the build when any are found.
 *
 * <p>Inputs are {@code target/classes}; the compile class path is context only. Summaries of
 * dependencies (reactor modules' {@code target/racer/summaries.json}, or the {@code racer-summaries}
 * artifact a dependency published) let races that cross module boundaries be found. This module's
 * summaries are written to {@code <outputDirectory>/summaries.json} and attached to the project
 * with classifier {@code racer-summaries}, so {@code mvn install} publishes them.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class CheckMojo extends AbstractMojo {

    /** Skips the analysis. */
    @Parameter(property = "racer.skip", defaultValue = "false")
    private boolean skip;

    /** Fails the build when more than {@code maxAllowedViolations} races are found. */
    @Parameter(property = "racer.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /** Number of races tolerated before the build fails. */
    @Parameter(property = "racer.maxAllowedViolations", defaultValue = "0")
    private int maxAllowedViolations;

    /** Prints each race (location, message, conflicting access) to the console. */
    @Parameter(property = "racer.printFailingErrors", defaultValue = "true")
    private boolean printFailingErrors;

    /**
     * Fails the build when a class file of this module cannot be read (a corrupt or truncated
     * class file). Unreadable class path entries are only warned about.
     */
    @Parameter(property = "racer.failOnError", defaultValue = "true")
    private boolean failOnError;

    /** Extra annotations treated as {@code @ThreadSafe} (simple or fully-qualified names). */
    @Parameter(property = "racer.threadSafeAnnotations")
    private List<String> threadSafeAnnotations;

    /** Binary class names ({@code a.b.Outer$Inner}) never reported on. */
    @Parameter(property = "racer.ignoreClasses")
    private List<String> ignoreClasses;

    /** Package prefixes that are analysed (for summaries) but never reported on. */
    @Parameter(property = "racer.libraryPackages")
    private List<String> libraryPackages;

    /** Report files to write in {@code outputDirectory}: any of {@code text, json, sarif, html}. */
    @Parameter(property = "racer.formats", defaultValue = "text,json,sarif,html")
    private List<String> formats;

    /** Where reports and {@code summaries.json} are written. */
    @Parameter(property = "racer.outputDirectory", defaultValue = "${project.build.directory}/racer")
    private File outputDirectory;

    /** The compiled classes to analyse. */
    @Parameter(property = "racer.classesDirectory", defaultValue = "${project.build.outputDirectory}")
    private File classesDirectory;

    /** Worker threads for the analysis; 0 means one per core. */
    @Parameter(property = "racer.threads", defaultValue = "0")
    private int threads;

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
     * Looks up the {@code racer-summaries} artifact of dependencies that come from a repository
     * (reactor modules are always used).
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

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("racer: skipped (racer.skip)");
            return;
        }
        if ("pom".equals(project.getPackaging())) {
            getLog().info("racer: skipped, nothing to analyse in a module with pom packaging");
            return;
        }
        if (classesDirectory == null || !classesDirectory.isDirectory()) {
            getLog().info("racer: skipped, no compiled classes in " + classesDirectory);
            return;
        }

        AnalysisRequest request = buildRequest();
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

        ConsoleReport console = ConsoleReport.of(result)
                .project(project.getArtifactId())
                .reportFile(request.preferredReport())
                .sourceRoots(request.sourcePaths(), project.getBasedir());
        AnalysisResult.Stats stats = result.stats();
        getLog().info(String.format(Locale.ROOT,
                "racer %s: %s, %s analysed, %s from %s; engine %d ms, native call %d ms",
                result.toolVersion(), plural(stats.classes(), "class", "classes"),
                plural(stats.methodsAnalysed(), "method", "methods"),
                plural(stats.upstreamClasses(), "upstream class", "upstream classes"),
                plural(request.summariesIn().size(), "summary file", "summary files"),
                stats.millis(), callMillis));

        recordSummaries(request.summariesOut());
        checkDiagnostics(result, console);
        report(result, console);
    }

    private AnalysisRequest buildRequest() throws MojoExecutionException {
        Map<ReportFormat, File> reports = reportFiles();
        File summariesOut = new File(outputDirectory, UpstreamSummaries.FILE_NAME);
        List<File> upstream = new UpstreamSummaries(session, project, repositorySystem, getLog())
                .find(dependencySummaries);
        AnalysisRequest.Builder builder = AnalysisRequest.builder()
                .input(classesDirectory)
                .classpath(classpath())
                .summariesIn(upstream)
                .summariesOut(summariesOut)
                .threadSafeAnnotations(trimmed(threadSafeAnnotations))
                .ignoreClasses(trimmed(ignoreClasses))
                .libraryPackages(trimmed(libraryPackages))
                .sourcePaths(sourceRoots());
        try {
            builder.threads(threads).maxMemory(maxMemory);
        } catch (IllegalArgumentException | RacerException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        for (Map.Entry<ReportFormat, File> report : reports.entrySet()) {
            builder.report(report.getKey(), report.getValue());
        }
        return builder.build();
    }

    private Map<ReportFormat, File> reportFiles() throws MojoExecutionException {
        Map<ReportFormat, File> reports = new EnumMap<>(ReportFormat.class);
        for (String name : trimmed(formats)) {
            if ("none".equalsIgnoreCase(name)) {
                continue;
            }
            ReportFormat format;
            try {
                format = ReportFormat.parse(name);
            } catch (IllegalArgumentException e) {
                throw new MojoExecutionException("racer: " + e.getMessage() + " in <formats>/racer.formats", e);
            }
            reports.put(format, new File(outputDirectory, "racer." + format.extension()));
        }
        for (ReportFormat format : ReportFormat.values()) {
            File stale = new File(outputDirectory, "racer." + format.extension());
            if (!reports.containsKey(format) && stale.isFile() && !stale.delete()) {
                getLog().warn("racer: cannot delete the outdated report " + stale);
            }
        }
        return reports;
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

    private void report(AnalysisResult result, ConsoleReport console) throws MojoFailureException {
        int count = result.issues().size();
        if (count == 0) {
            getLog().info(console.summary());
            return;
        }
        boolean fails = failOnViolation && count > maxAllowedViolations;
        if (printFailingErrors) {
            for (String line : console.issueLines()) {
                if (fails) {
                    getLog().error(line);
                } else {
                    getLog().warn(line);
                }
            }
        }
        if (fails) {
            getLog().error(console.summary());
            throw new MojoFailureException(console.failureMessage(maxAllowedViolations));
        }
        getLog().warn(console.summary() + (failOnViolation
                ? " (within racer.maxAllowedViolations=" + maxAllowedViolations + ")"
                : " (not failing: racer.failOnViolation=false)"));
    }

    private static String plural(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static List<String> trimmed(List<String> values) {
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
