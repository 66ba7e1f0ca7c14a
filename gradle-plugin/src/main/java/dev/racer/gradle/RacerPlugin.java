package dev.racer.gradle;

import java.io.File;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gradle.api.GradleException;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.artifacts.Configuration;
import org.gradle.api.artifacts.Dependency;
import org.gradle.api.artifacts.ProjectDependency;
import org.gradle.api.plugins.JavaPlugin;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;

/**
 * Plugin {@code dev.racer}: adds the {@code racer { }} extension and, once the {@code java} (or
 * {@code java-library}) plugin is applied, a {@code racerCheck} task that {@code check} depends on.
 * The plugin never applies {@code java} itself.
 *
 * <p>{@code racerCheck} analyses the main source set's class directories with the compile class
 * path as context, reads the summary files of upstream project dependencies (their
 * {@code racerCheck} runs first) and writes this module's own summary file for its dependants.
 */
public class RacerPlugin implements Plugin<Project> {
    public static final String PLUGIN_ID = "dev.racer";
    public static final String EXTENSION_NAME = "racer";
    public static final String TASK_NAME = "racerCheck";
    /** Summary file of a module, relative to its build directory. */
    public static final String SUMMARY_PATH = "racer/summaries.json";
    /** Default reports directory, relative to the build directory. */
    public static final String REPORTS_PATH = "reports/racer";
    /** Gradle property ({@code -Pracer.ignoreFailures=true}) overriding {@code racer.ignoreFailures}. */
    public static final String IGNORE_FAILURES_PROPERTY = "racer.ignoreFailures";

    private static final int[] MINIMUM_GRADLE = {4, 4};

    @Override
    public void apply(final Project project) {
        checkGradleVersion(project.getGradle().getGradleVersion());
        final RacerExtension extension = project.getExtensions().create(EXTENSION_NAME, RacerExtension.class);
        project.getPlugins().withType(JavaPlugin.class, javaPlugin -> configureJava(project, extension));
    }

    private void configureJava(final Project project, final RacerExtension extension) {
        final Object racerCheck = GradleCompat.registerTask(project, TASK_NAME, RacerCheckTask.class,
                task -> configureTask(project, extension, task));
        GradleCompat.configureTask(project, "check", check -> check.dependsOn(
                (Callable<Object>) () -> extension.isRunOnCheck() ? racerCheck : Collections.emptyList()));
    }

    private void configureTask(final Project project, RacerExtension extension, RacerCheckTask task) {
        task.setGroup("verification");
        task.setDescription("Runs the racer data-race detector on the main classes.");
        File buildDir = GradleCompat.buildDir(project);
        task.useDefaults(extension, projectName(project), project.getProjectDir(), new File(buildDir, REPORTS_PATH));
        task.setSummaryFile(new File(buildDir, SUMMARY_PATH));
        Object ignore = project.findProperty(IGNORE_FAILURES_PROPERTY);
        if (ignore != null) {
            task.setIgnoreFailuresProperty(Boolean.valueOf(String.valueOf(ignore).trim()));
        }

        final SourceSet main = mainSourceSet(project);
        task.setClassDirs(main.getOutput().getClassesDirs());
        task.setClasspath(main.getCompileClasspath());
        task.setSourceRoots(project.files((Callable<Object>) () -> main.getAllSource().getSrcDirs()));
        task.setSourceFiles(main.getAllSource().matching(p -> {
            p.include("**/*.java");
            p.include("**/*.kt");
        }));
        task.setUpstreamSummaries(project.files((Callable<Object>) () -> upstreamSummaryFiles(project)));
        task.dependsOn((Callable<Object>) () -> upstreamTasks(project));
    }

    private static SourceSet mainSourceSet(Project project) {
        // `sourceSets` is a convention property up to Gradle 7 and an extension afterwards;
        // the dynamic property lookup finds it in both.
        Object sourceSets = project.property("sourceSets");
        return ((SourceSetContainer) sourceSets).getByName(SourceSet.MAIN_SOURCE_SET_NAME);
    }

    private static String projectName(Project project) {
        return project.getParent() == null ? "project '" + project.getName() + "'" : "project '" + project.getPath() + "'";
    }

    /** racerCheck tasks of the projects this one depends on, directly or transitively. */
    static List<Task> upstreamTasks(Project project) {
        List<Task> tasks = new ArrayList<Task>();
        for (Project upstream : upstreamProjects(project).values()) {
            Task t = upstream.getTasks().findByName(TASK_NAME);
            if (t != null) {
                tasks.add(t);
            }
        }
        return tasks;
    }

    static List<File> upstreamSummaryFiles(Project project) {
        List<File> files = new ArrayList<File>();
        for (Task t : upstreamTasks(project)) {
            File summary = summaryFileOf(t);
            if (summary != null) {
                files.add(summary);
            }
        }
        return files;
    }

    /** The summary file of an upstream racerCheck, also when its plugin class came from another class loader. */
    private static File summaryFileOf(Task task) {
        if (task instanceof RacerCheckTask) {
            return ((RacerCheckTask) task).getSummaryFile();
        }
        try {
            Method m = task.getClass().getMethod("getSummaryFile");
            Object file = m.invoke(task);
            return file instanceof File ? (File) file : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Project dependencies of the main compile class path, transitively, in discovery order. */
    static Map<String, Project> upstreamProjects(Project project) {
        Map<String, Project> found = new LinkedHashMap<String, Project>();
        collect(project, found);
        found.remove(project.getPath());
        return found;
    }

    private static void collect(Project project, Map<String, Project> found) {
        Configuration configuration = project.getConfigurations().findByName(
                "compileClasspath");
        if (configuration == null) {
            configuration = project.getConfigurations().findByName("compile");
        }
        if (configuration == null) {
            return;
        }
        for (Dependency dependency : configuration.getAllDependencies()) {
            if (!(dependency instanceof ProjectDependency)) {
                continue;
            }
            String path = GradleCompat.dependencyPath((ProjectDependency) dependency);
            if (path == null || found.containsKey(path) || path.equals(project.getPath())) {
                continue;
            }
            Project upstream = project.findProject(path);
            if (upstream == null) {
                continue;
            }
            found.put(path, upstream);
            collect(upstream, found);
        }
    }

    static void checkGradleVersion(String version) {
        int[] actual = parseVersion(version);
        for (int i = 0; i < MINIMUM_GRADLE.length; i++) {
            if (actual[i] != MINIMUM_GRADLE[i]) {
                if (actual[i] < MINIMUM_GRADLE[i]) {
                    throw new GradleException("The racer plugin (" + PLUGIN_ID + ") needs Gradle "
                            + MINIMUM_GRADLE[0] + "." + MINIMUM_GRADLE[1] + " or later; this is Gradle " + version);
                }
                return;
            }
        }
    }

    private static int[] parseVersion(String version) {
        int[] parts = new int[MINIMUM_GRADLE.length];
        String[] split = version.split("[.\\-]");
        for (int i = 0; i < parts.length && i < split.length; i++) {
            try {
                parts[i] = Integer.parseInt(split[i]);
            } catch (NumberFormatException e) {
                break;
            }
        }
        return parts;
    }
}
