package dev.racer.gradle;

import dev.racer.bridge.AnalysisRequest;
import dev.racer.bridge.AnalysisResult;
import dev.racer.bridge.ConsoleReport;
import dev.racer.bridge.ReportFormat;
import java.io.File;
import org.gradle.api.GradleException;
import org.gradle.api.logging.Logger;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.Console;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.InputFile;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputFile;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.TaskAction;
import org.gradle.api.tasks.VerificationTask;

/**
 * Runs the racer engine in-process on a module's class directories and writes its summary file
 * (for downstream modules) and reports. Fails the build on new races only: those in the baseline
 * file and those suppressed in the code are reported but never fail it. Unset settings fall back
 * to the project's {@code racer { }} extension.
 */
@CacheableTask
public class RacerCheckTask extends RacerAnalysisTask implements VerificationTask {
    private File summaryFile;
    private File reportsDir;
    private File baselineFile;
    private Boolean ignoreFailures;
    private Boolean ignoreFailuresProperty;
    private Integer maxIssues;
    private Integer consoleLimit;
    private Boolean textReport;
    private Boolean jsonReport;
    private Boolean sarifReport;
    private Boolean htmlReport;
    private File defaultReportsDir;
    private boolean baselineRunInBuild;

    /** This module's summaries, published to downstream modules as the {@code dev.racer.summaries} variant. */
    @OutputFile
    public File getSummaryFile() {
        return summaryFile;
    }

    public void setSummaryFile(File summaryFile) {
        this.summaryFile = summaryFile;
    }

    /**
     * The baseline file ({@code racer.baseline}): issues found in it are reported as baselined and do
     * not fail the build. Null (no input) while the file does not exist yet.
     */
    @InputFile
    @Optional
    @PathSensitive(PathSensitivity.RELATIVE)
    public File getBaselineFile() {
        File file = configuredBaselineFile();
        return file != null && file.isFile() ? file : null;
    }

    public void setBaselineFile(File baselineFile) {
        this.baselineFile = resolve(baselineFile);
    }

    /** The baseline file as configured, whether it exists or not. */
    File configuredBaselineFile() {
        return baselineFile != null ? baselineFile : resolve(defaults().getBaseline());
    }

    /** How many issues the console shows in full (null: the engine's default). */
    @Console
    @Optional
    public Integer getConsoleLimit() {
        return consoleLimit != null ? consoleLimit : defaults().getConsoleLimit();
    }

    public void setConsoleLimit(Integer consoleLimit) {
        this.consoleLimit = consoleLimit;
    }

    @Internal
    public File getReportsDir() {
        if (reportsDir != null) {
            return reportsDir;
        }
        if (defaults().getReportsDir() != null) {
            return resolve(defaults().getReportsDir());
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
        return ignoreFailuresProperty != null ? ignoreFailuresProperty : defaults().isIgnoreFailures();
    }

    @Override
    public void setIgnoreFailures(boolean ignoreFailures) {
        this.ignoreFailures = ignoreFailures;
    }

    /** The build fails when more new races than this are found (default 0). */
    @Input
    public int getMaxIssues() {
        return maxIssues != null ? maxIssues : defaults().getMaxIssues();
    }

    public void setMaxIssues(int maxIssues) {
        this.maxIssues = maxIssues;
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
        return report(ReportFormat.TEXT, textReport, defaults().getReports().isText());
    }

    @OutputFile
    @Optional
    public File getJsonReportFile() {
        return report(ReportFormat.JSON, jsonReport, defaults().getReports().isJson());
    }

    @OutputFile
    @Optional
    public File getSarifReportFile() {
        return report(ReportFormat.SARIF, sarifReport, defaults().getReports().isSarif());
    }

    @OutputFile
    @Optional
    public File getHtmlReportFile() {
        return report(ReportFormat.HTML, htmlReport, defaults().getReports().isHtml());
    }

    /** The Gradle property {@code racer.ignoreFailures}, which wins over the extension. */
    void setIgnoreFailuresProperty(Boolean value) {
        this.ignoreFailuresProperty = value;
    }

    void useDefaultReportsDir(File reports) {
        this.defaultReportsDir = reports;
    }

    /**
     * Set when the build also runs {@code racerBaseline}: this task then provides the summaries the
     * baseline needs and does not fail on races.
     */
    void setBaselineRunInBuild(boolean running) {
        this.baselineRunInBuild = running;
    }

    private File report(ReportFormat format, Boolean own, boolean fallback) {
        boolean enabled = own != null ? own : fallback;
        File dir = getReportsDir();
        return enabled && dir != null ? new File(dir, "racer." + format.extension()) : null;
    }

    @TaskAction
    public void analyze() {
        Logger log = getLogger();
        File configuredBaseline = configuredBaselineFile();
        if (configuredBaseline != null && !configuredBaseline.isFile()) {
            log.warn("racer: the baseline file {} does not exist yet; run racerBaseline to create it",
                    configuredBaseline);
        }
        AnalysisRequest request = analysisRequest()
                .summariesOut(getSummaryFile())
                .baseline(getBaselineFile())
                .consoleLimit(getConsoleLimit())
                .report(ReportFormat.TEXT, getTextReportFile())
                .report(ReportFormat.JSON, getJsonReportFile())
                .report(ReportFormat.SARIF, getSarifReportFile())
                .report(ReportFormat.HTML, getHtmlReportFile())
                .build();
        deleteDisabledReports(request);
        AnalysisResult result = run(request);

        ConsoleReport console = ConsoleReport.of(result)
                .project(projectDisplayName())
                .reportFile(request.preferredReport())
                .sourceRoots(existingSourceRoots(), projectDir())
                .traces(!isQuiet());
        long stale = result.counts().staleBaselineEntries();
        // A clean run prints nothing but the summary line (at info level, unless showProgress).
        boolean clean = result.counts().total() == 0 && result.diagnostics().isEmpty() && stale == 0;
        boolean engineText = console.hasEngineText() && !isQuiet() && !clean;
        if (engineText || (!isQuiet() && !console.hasEngineText())) {
            for (String line : console.issueLines()) {
                log.warn(line);
            }
        }
        if (!engineText) {
            for (String line : console.diagnosticLines()) {
                log.warn(line);
            }
        }
        if (stale > 0 && !engineText) {
            log.warn("racer: {} of {} no longer occur{}; run racerBaseline to shrink it",
                    stale == 1 ? "1 baseline entry" : stale + " baseline entries", configuredBaseline,
                    stale == 1 ? "s" : "");
        }
        if (result.counts().total() == 0) {
            if (isShowProgress()) {
                log.lifecycle(console.summary());
            } else {
                log.info(console.summary());
            }
            return;
        }
        log.warn(console.summary());
        int allowed = getMaxIssues();
        if (result.fails(allowed)) {
            String message = console.failureMessage(allowed);
            if (getIgnoreFailures()) {
                log.warn(message + " (ignoreFailures is set)");
            } else if (baselineRunInBuild) {
                log.warn(message + " (not failing: racerBaseline runs in this build)");
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

}
