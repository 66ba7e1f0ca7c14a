package dev.racer.gradle;

import java.io.File;
import java.util.Collections;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.gradle.api.Project;
import org.gradle.api.artifacts.Configuration;
import org.gradle.api.artifacts.ConfigurationVariant;
import org.gradle.api.artifacts.component.ProjectComponentIdentifier;
import org.gradle.api.attributes.Attribute;
import org.gradle.api.attributes.AttributeContainer;
import org.gradle.api.attributes.Usage;
import org.gradle.api.file.FileCollection;

/**
 * Shares summary files between modules the Gradle way, without looking into other projects.
 *
 * <p>Producer: the configurations that a dependant's compile class path selects ({@code apiElements}
 * and {@code runtimeElements} of a Java module) get a secondary variant {@code racerSummaries} whose
 * artifact is the summary file, built by {@code racerCheck}. Its {@link Usage} is our own, so a
 * consumer that does not ask for it never selects it: the Java plugin's own variants are untouched.
 *
 * <p>Consumer: an artifact view of the compile class path that asks for that usage, the
 * {@code dev.racer.summaries} attribute and the {@code racer-summaries} artifact type. Gradle
 * resolves it like the class path itself, so project dependencies and substituted modules of
 * included builds ({@code includeBuild}) both deliver their summaries, and the view's build
 * dependencies make the upstream {@code racerCheck} run first. On Gradle 4.4 an artifact view
 * chooses among the variants of the configuration the class path selected (it cannot reselect
 * another configuration), hence the secondary variant rather than a configuration of its own.
 */
final class SummaryVariant {
    /** Our attribute; its value says what the artifact is. */
    static final Attribute<String> ATTRIBUTE = Attribute.of("dev.racer.summaries", String.class);
    static final String VALUE = "summaries";
    /** The usage of the summary variant: no Java consumer asks for it. */
    static final String USAGE = "dev.racer.summaries";
    /** The artifact type ({@code artifactType} attribute) of summary files. */
    static final String ARTIFACT_TYPE = "racer-summaries";
    static final String VARIANT_NAME = "racerSummaries";
    /** Gradle's artifact type attribute (public constant only since 7.3, same name before). */
    static final Attribute<String> ARTIFACT_TYPE_ATTRIBUTE = Attribute.of("artifactType", String.class);

    private SummaryVariant() {
    }

    /** Adds the summary variant to the outgoing configurations, now or when they are created. */
    static void publish(Project project, Predicate<String> outgoing, File summaryFile, Object builtBy) {
        project.getConfigurations().matching(c -> outgoing.test(c.getName())).all(c -> {
            ConfigurationVariant variant = c.getOutgoing().getVariants().create(VARIANT_NAME);
            mark(project, variant.getAttributes());
            variant.artifact(summaryFile, artifact -> {
                artifact.setType(ARTIFACT_TYPE);
                artifact.builtBy(builtBy);
            });
        });
    }

    /**
     * The summary files of the project components on the named class path configuration; empty while
     * that configuration does not exist (Android variants appear late). Components without racer
     * are skipped (lenient view).
     */
    static FileCollection upstream(Project project, String configurationName) {
        return project.files((Callable<Object>) () -> {
            Configuration classpath = project.getConfigurations().findByName(configurationName);
            if (classpath == null) {
                return Collections.emptyList();
            }
            return classpath.getIncoming().artifactView(view -> {
                view.attributes(attributes -> {
                    mark(project, attributes);
                    attributes.attribute(ARTIFACT_TYPE_ATTRIBUTE, ARTIFACT_TYPE);
                });
                view.componentFilter(id -> id instanceof ProjectComponentIdentifier);
                view.lenient(true);
            }).getFiles();
        });
    }

    private static void mark(Project project, AttributeContainer attributes) {
        attributes.attribute(Usage.USAGE_ATTRIBUTE, project.getObjects().named(Usage.class, USAGE));
        attributes.attribute(ATTRIBUTE, VALUE);
    }
}
