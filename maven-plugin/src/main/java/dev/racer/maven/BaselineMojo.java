package dev.racer.maven;

import java.io.File;

import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

import dev.racer.bridge.AnalysisResult;

/**
 * Writes (or refreshes) the baseline file, {@code racer.baseline}, with the races found in the
 * module now, so that {@code check} fails only on races added later. Never fails on races.
 * Issues suppressed in the code are not written. Like {@code check} it writes the module's
 * summaries, so the modules built after it in the reactor see races that cross into it.
 *
 * <p>Run {@code mvn racer:baseline} (it compiles first) and commit the file.
 */
@Mojo(name = "baseline", requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
@Execute(phase = LifecyclePhase.COMPILE)
public class BaselineMojo extends AbstractRacerMojo {

    @Override
    public void execute() throws MojoExecutionException {
        if (!hasWork()) {
            return;
        }
        File target = baselineFile();
        if (target == null) {
            throw new MojoExecutionException("racer: no baseline file is set (racer.baseline)");
        }
        AnalysisResult result = analyse(request().writeBaseline(target).consoleLimit(0).build());
        AnalysisResult.Counts counts = result.counts();
        long written = counts.total() - counts.suppressed();
        getLog().info("racer: wrote " + target + " with " + plural(written, "race", "races") + " of "
                + project().getArtifactId() + " (" + counts.suppressed() + " suppressed in the code, not written)");
    }
}
