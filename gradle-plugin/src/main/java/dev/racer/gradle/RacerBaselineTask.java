package dev.racer.gradle;

import dev.racer.bridge.AnalysisResult;
import java.io.File;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputFile;
import org.gradle.api.tasks.TaskAction;

/**
 * {@code racerBaseline}: analyses the module like {@code racerCheck} and writes the issues found into
 * the baseline file ({@code racer.baseline}), replacing its content. Never fails on issues; writes
 * no reports and no summary file. In a module without a baseline setting it only says so, so that
 * {@code gradle racerBaseline} works on a build where some modules use no baseline.
 */
public class RacerBaselineTask extends RacerAnalysisTask {
    private File baselineFile;

    public RacerBaselineTask() {
        // It writes a file kept in version control from the current code: always run when asked.
        getOutputs().upToDateWhen(task -> false);
    }

    /** The file written: the task's own setting, else {@code racer.baseline}; null when neither is set. */
    @OutputFile
    @Optional
    public File getBaselineFile() {
        return baselineFile != null ? baselineFile : resolve(defaults().getBaseline());
    }

    public void setBaselineFile(File baselineFile) {
        this.baselineFile = resolve(baselineFile);
    }

    @TaskAction
    public void writeBaseline() {
        File target = getBaselineFile();
        if (target == null) {
            getLogger().warn("racer: no baseline file is set for {}, nothing written"
                    + " (racer { baseline = file('racer-baseline.json') })", projectDisplayName());
            return;
        }
        AnalysisResult result = run(analysisRequest().writeBaseline(target).consoleLimit(0).build());
        for (AnalysisResult.Diagnostic d : result.diagnostics()) {
            getLogger().warn("racer: warning: {}", d);
        }
        AnalysisResult.Counts counts = result.counts();
        long written = counts.total() - counts.suppressed();
        getLogger().lifecycle("racer: wrote {} with {} of {} ({} suppressed in the code, not written)", target,
                written == 1 ? "1 issue" : written + " issues", projectDisplayName(), counts.suppressed());
    }
}
