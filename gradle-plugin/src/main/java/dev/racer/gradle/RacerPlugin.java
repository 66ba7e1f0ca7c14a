package dev.racer.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.plugins.JavaPlugin;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.compile.JavaCompile;

/**
 * Plugin {@code dev.racer}: adds the {@code racer { }} extension and, once the {@code java} (or
 * {@code java-library}) plugin is applied, a {@code racerCheck} task that {@code check} depends on.
 * The plugin never applies {@code java} itself.
 *
 * <p>{@code racerCheck} analyses the main source set's class directories with the compile class
 * path as context, reads the summary files of upstream modules (resolved from their summary
 * variant, see {@link SummaryVariant}; their {@code racerCheck} runs first) and writes this
 * module's own summary file, published as that variant for its dependants. {@code racerBaseline}
 * analyses the same way and writes the baseline file.
 *
 * <p>Android modules ({@code com.android.application}, {@code com.android.library}, recognised by
 * plugin id) get the same task, fed from the compile tasks of the variant set by
 * {@code racer.androidVariant}, found by their names.
 */
public class RacerPlugin implements Plugin<Project> {
    public static final String PLUGIN_ID = "dev.racer";
    public static final String EXTENSION_NAME = "racer";
    public static final String TASK_NAME = "racerCheck";
    public static final String BASELINE_TASK_NAME = "racerBaseline";
    /** Summary file of a module, relative to its build directory. */
    public static final String SUMMARY_PATH = "racer/summaries.json";
    /** Default reports directory, relative to the build directory. */
    public static final String REPORTS_PATH = "reports/racer";
    /** Gradle property ({@code -Pracer.ignoreFailures=true}) overriding {@code racer.ignoreFailures}. */
    public static final String IGNORE_FAILURES_PROPERTY = "racer.ignoreFailures";

    /** Plugin ids of the Android Gradle Plugin that get a racerCheck (matched by id, never by class). */
    static final String[] ANDROID_PLUGIN_IDS = {"com.android.application", "com.android.library"};

    private static final int[] MINIMUM_GRADLE = {4, 4};

    @Override
    public void apply(final Project project) {
        checkGradleVersion(project.getGradle().getGradleVersion());
        final RacerExtension extension = project.getExtensions().create(EXTENSION_NAME, RacerExtension.class);
        final AtomicBoolean registered = new AtomicBoolean();
        project.getPlugins().withType(JavaPlugin.class, javaPlugin -> {
            if (registered.compareAndSet(false, true)) {
                configureJava(project, extension);
            }
        });
        // Android modules, recognised by plugin id only: no class of the Android Gradle Plugin is used.
        for (String id : ANDROID_PLUGIN_IDS) {
            project.getPluginManager().withPlugin(id, androidPlugin -> {
                if (registered.compareAndSet(false, true)) {
                    configureAndroid(project, extension);
                }
            });
        }
    }

    private void configureJava(final Project project, final RacerExtension extension) {
        register(project, extension, task -> configureJavaTask(project, task));
    }

    private void configureAndroid(final Project project, final RacerExtension extension) {
        register(project, extension, task -> configureAndroidTask(project, extension, task));
    }

    /**
     * Registers racerCheck and racerBaseline (common settings, then {@code inputs}), publishes the
     * summary variant and hooks racerCheck into {@code check}.
     */
    private void register(final Project project, final RacerExtension extension, final Action<RacerAnalysisTask> inputs) {
        final Object racerCheck = GradleCompat.registerTask(project, TASK_NAME, RacerCheckTask.class, task -> {
            configureCommon(project, extension, task);
            inputs.execute(task);
        });
        GradleCompat.registerTask(project, BASELINE_TASK_NAME, RacerBaselineTask.class, task -> {
            task.useDefaults(extension, projectName(project), project.getProjectDir());
            inputs.execute(task);
            task.setGroup("verification");
            task.setDescription("Writes the races racerCheck would report into the baseline file (racer.baseline).");
        });
        File summaryFile = new File(GradleCompat.buildDir(project), SUMMARY_PATH);
        SummaryVariant.publish(project, name -> isOutgoing(name, extension), summaryFile, racerCheck);
        // racerBaseline needs upstream summaries, built by upstream racerCheck tasks: those must not
        // stop the build on races that the baseline is about to record.
        project.getGradle().getTaskGraph().whenReady(graph -> {
            boolean baselineRuns = false;
            for (Task t : graph.getAllTasks()) {
                baselineRuns |= t.getName().equals(BASELINE_TASK_NAME);
            }
            for (Task t : graph.getAllTasks()) {
                if (t instanceof RacerCheckTask && t.getProject() == project) {
                    ((RacerCheckTask) t).setBaselineRunInBuild(baselineRuns);
                }
            }
        });
        final Action<Task> hook = check -> check.dependsOn(
                (Callable<Object>) () -> extension.isRunOnCheck() ? racerCheck : Collections.emptyList());
        if (project.getTasks().getNames().contains("check")) {
            GradleCompat.configureTask(project, "check", hook);
        } else {
            // `check` (from the base plugins) may come later, or not at all.
            project.afterEvaluate(p -> {
                if (p.getTasks().getNames().contains("check")) {
                    GradleCompat.configureTask(p, "check", hook);
                }
            });
        }
    }

    private void configureCommon(final Project project, RacerExtension extension, RacerCheckTask task) {
        task.setGroup("verification");
        task.setDescription("Runs the racer data-race detector on the main classes.");
        File buildDir = GradleCompat.buildDir(project);
        task.useDefaults(extension, projectName(project), project.getProjectDir());
        task.useDefaultReportsDir(new File(buildDir, REPORTS_PATH));
        task.setSummaryFile(new File(buildDir, SUMMARY_PATH));
        Object ignore = project.findProperty(IGNORE_FAILURES_PROPERTY);
        if (ignore != null) {
            task.setIgnoreFailuresProperty(Boolean.valueOf(String.valueOf(ignore).trim()));
        }
    }

    private void configureJavaTask(final Project project, RacerAnalysisTask task) {
        final SourceSet main = mainSourceSet(project);
        task.setClassDirs(main.getOutput().getClassesDirs());
        task.setClasspath(main.getCompileClasspath());
        task.setSourceRoots(project.files((Callable<Object>) () -> main.getAllSource().getSrcDirs()));
        task.setSourceFiles(main.getAllSource().matching(p -> {
            p.include("**/*.java");
            p.include("**/*.kt");
        }));
        task.setUpstreamSummaries(SummaryVariant.upstream(project, JavaPlugin.COMPILE_CLASSPATH_CONFIGURATION_NAME));
    }

    /**
     * Android: the inputs come from the variant's compile tasks, found by AGP's task names
     * ({@code compile<Variant>JavaWithJavac}, a core {@code JavaCompile}; {@code compile<Variant>Kotlin},
     * read reflectively) when the task graph is built, so a variant that does not exist yet at
     * configuration time (AGP creates its tasks late) is no error; a missing one leaves racerCheck
     * without classes ({@code NO-SOURCE}).
     */
    private void configureAndroidTask(final Project project, final RacerExtension extension, RacerAnalysisTask task) {
        task.setDescription("Runs the racer data-race detector on the classes of the Android variant"
                + " set by racer.androidVariant (default release).");
        task.setClassDirs(project.files((Callable<Object>) () -> {
            List<File> dirs = new ArrayList<File>();
            for (Task compile : androidCompileTasks(project, extension)) {
                File dir = GradleCompat.destinationDir(compile);
                if (dir != null) {
                    dirs.add(dir);
                }
            }
            return dirs;
        }));
        task.setClasspath(project.files((Callable<Object>) () -> {
            JavaCompile javac = androidJavac(project, extension);
            return javac != null ? javac.getClasspath() : Collections.emptyList();
        }));
        task.setSourceFiles(project.files((Callable<Object>) () -> {
            JavaCompile javac = androidJavac(project, extension);
            List<Object> sources = new ArrayList<Object>();
            if (javac != null) {
                sources.add(javac.getSource());
            }
            for (File root : androidKotlinRoots(project, extension)) {
                sources.add(project.fileTree(root).matching(p -> p.include("**/*.kt")));
            }
            return sources;
        }));
        task.setSourceRoots(project.files((Callable<Object>) () -> androidSourceRoots(project, extension)));
        // By name, so that nothing is created or fails before the task graph is built.
        task.dependsOn((Callable<Object>) () -> {
            List<String> names = new ArrayList<String>();
            for (String name : androidCompileTaskNames(extension)) {
                if (project.getTasks().getNames().contains(name)) {
                    names.add(name);
                }
            }
            return names;
        });
        task.setUpstreamSummaries(SummaryVariant.upstream(project, androidVariantName(extension) + "CompileClasspath"));
    }

    /**
     * Whether dependants resolve this configuration: a Java module's {@code apiElements} and
     * {@code runtimeElements}; AGP's {@code <variant>ApiElements} and {@code <variant>RuntimeElements}
     * (asked when AGP creates them, after the build script has set {@code androidVariant}).
     */
    private static boolean isOutgoing(String configuration, RacerExtension extension) {
        String variant = androidVariantName(extension);
        return Arrays.asList(JavaPlugin.API_ELEMENTS_CONFIGURATION_NAME, JavaPlugin.RUNTIME_ELEMENTS_CONFIGURATION_NAME,
                variant + "ApiElements", variant + "RuntimeElements").contains(configuration);
    }

    private static String androidVariantName(RacerExtension extension) {
        String v = extension.getAndroidVariant();
        return v == null || v.isEmpty() ? "release" : v;
    }

    private static String capitalized(String variant) {
        String v = variant == null || variant.isEmpty() ? "release" : variant;
        return Character.toUpperCase(v.charAt(0)) + v.substring(1);
    }

    /** AGP's task names for the variant: {@code compileReleaseJavaWithJavac}, {@code compileReleaseKotlin}. */
    static List<String> androidCompileTaskNames(RacerExtension extension) {
        String variant = capitalized(extension.getAndroidVariant());
        List<String> names = new ArrayList<String>();
        names.add("compile" + variant + "JavaWithJavac");
        names.add("compile" + variant + "Kotlin");
        return names;
    }

    private static JavaCompile androidJavac(Project project, RacerExtension extension) {
        Task t = project.getTasks().findByName(androidCompileTaskNames(extension).get(0));
        return t instanceof JavaCompile ? (JavaCompile) t : null;
    }

    private static List<Task> androidCompileTasks(Project project, RacerExtension extension) {
        List<Task> tasks = new ArrayList<Task>();
        JavaCompile javac = androidJavac(project, extension);
        if (javac != null) {
            tasks.add(javac);
        }
        Task kotlin = project.getTasks().findByName(androidCompileTaskNames(extension).get(1));
        if (kotlin != null) {
            tasks.add(kotlin);
        }
        return tasks;
    }

    /** AGP's conventional source directories of the main source set and the variant. */
    private static List<File> androidSourceRoots(Project project, RacerExtension extension) {
        String variant = extension.getAndroidVariant() == null ? "release" : extension.getAndroidVariant();
        List<File> roots = new ArrayList<File>();
        for (String set : new String[] {"main", variant}) {
            for (String language : new String[] {"java", "kotlin"}) {
                roots.add(project.file("src/" + set + "/" + language));
            }
        }
        return roots;
    }

    private static List<File> androidKotlinRoots(Project project, RacerExtension extension) {
        List<File> roots = new ArrayList<File>();
        for (File root : androidSourceRoots(project, extension)) {
            if (root.getName().equals("kotlin") && root.isDirectory()) {
                roots.add(root);
            }
        }
        return roots;
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
