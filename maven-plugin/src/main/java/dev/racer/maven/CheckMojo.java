package dev.racer.maven;

import java.io.File;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

import dev.racer.bridge.AnalysisRequest;
import dev.racer.bridge.AnalysisResult;
import dev.racer.bridge.ConsoleReport;
import dev.racer.bridge.ReportFormat;

/**
 * Analyses the module's compiled classes for data races and fails the build when new ones are
 * found: races listed in the baseline file and races suppressed in the code never fail it.
 *
 * <p>Inputs are {@code target/classes}; the compile class path is context only. Summaries of
 * dependencies (reactor modules' {@code target/racer/summaries.json}, or the {@code racer-summaries}
 * artifact a dependency published) let races that cross module boundaries be found. This module's
 * summaries are written to {@code <outputDirectory>/summaries.json} and attached to the project
 * with classifier {@code racer-summaries}, so {@code mvn install} publishes them.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class CheckMojo extends AbstractRacerMojo {

    /** Fails the build when more than {@code maxAllowedViolations} new races are found. */
    @Parameter(property = "racer.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /** Number of new races tolerated before the build fails. */
    @Parameter(property = "racer.maxAllowedViolations", defaultValue = "0")
    private int maxAllowedViolations;

    /** Prints the races (grouped by class and field, the first {@code consoleLimit} in full). */
    @Parameter(property = "racer.printFailingErrors", defaultValue = "true")
    private boolean printFailingErrors;

    /** How many new races the console shows in full before the counts; the engine's default is 20. */
    @Parameter(property = "racer.consoleLimit")
    private Integer consoleLimit;

    /** Report files to write in {@code outputDirectory}: any of {@code text, json, sarif, html}. */
    @Parameter(property = "racer.formats", defaultValue = "text,json,sarif,html")
    private List<String> formats;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (!hasWork()) {
            return;
        }
        File baseline = baselineFile();
        boolean useBaseline = baseline != null && baseline.isFile();
        if (!useBaseline) {
            getLog().debug("racer: no baseline file " + baseline + "; every race is new");
        }
        AnalysisRequest.Builder builder = request()
                .baseline(useBaseline ? baseline : null)
                .consoleLimit(consoleLimit);
        for (Map.Entry<ReportFormat, File> report : reportFiles().entrySet()) {
            builder.report(report.getKey(), report.getValue());
        }
        AnalysisRequest request = builder.build();
        AnalysisResult result = analyse(request);
        report(result, console(result, request));
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
            reports.put(format, new File(outputDirectory(), "racer." + format.extension()));
        }
        for (ReportFormat format : ReportFormat.values()) {
            File stale = new File(outputDirectory(), "racer." + format.extension());
            if (!reports.containsKey(format) && stale.isFile() && !stale.delete()) {
                getLog().warn("racer: cannot delete the outdated report " + stale);
            }
        }
        return reports;
    }

    /**
     * Prints the engine's console text (at error level when the build fails, warning when there
     * are new races, info when every race is baselined or suppressed), then fails on new races only.
     */
    private void report(AnalysisResult result, ConsoleReport console) throws MojoFailureException {
        AnalysisResult.Counts counts = result.counts();
        boolean fails = failOnViolation && result.fails(maxAllowedViolations);
        if (printFailingErrors && (counts.total() > 0 || counts.staleBaselineEntries() > 0)) {
            for (String line : console.issueLines()) {
                if (line.startsWith("warning: ")) {
                    continue; // an unreadable input, already logged by analyse() as "racer: warning: ..."
                }
                log(fails ? Level.ERROR : counts.newIssues() > 0 ? Level.WARN : Level.INFO, line);
            }
        }
        if (fails) {
            getLog().error(console.summary());
            throw new MojoFailureException(console.failureMessage(maxAllowedViolations));
        }
        if (counts.newIssues() == 0) {
            getLog().info(console.summary());
        } else {
            getLog().warn(console.summary() + (failOnViolation
                    ? " (within racer.maxAllowedViolations=" + maxAllowedViolations + ")"
                    : " (not failing: racer.failOnViolation=false)"));
        }
    }

    private enum Level { ERROR, WARN, INFO }

    private void log(Level level, String line) {
        switch (level) {
            case ERROR:
                getLog().error(line);
                break;
            case WARN:
                getLog().warn(line);
                break;
            default:
                getLog().info(line);
        }
    }
}
