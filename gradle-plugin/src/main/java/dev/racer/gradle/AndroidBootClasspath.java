package dev.racer.gradle;

import java.io.File;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.gradle.api.Project;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.compile.CompileOptions;
import org.gradle.api.tasks.compile.JavaCompile;

/**
 * The Android framework classes of a variant (its boot classpath, {@code android.jar}), which
 * racer needs as context: without them it cannot tell that {@code onCreate} overrides
 * {@code Activity.onCreate}, so lifecycle callbacks would not count as main-thread code.
 *
 * <p>Read from every place the Android Gradle Plugin puts them, with no AGP class involved:
 * the compile task's {@code options.bootstrapClasspath} (current AGP), its
 * {@code options.bootClasspath} string (AGP 2.x and 3.x; the getter is gone from newer Gradle,
 * hence the reflective call) and the {@code android} extension's {@code bootClasspath}.
 */
final class AndroidBootClasspath {
    private AndroidBootClasspath() {
    }

    /** The boot classpath entries, in order and without duplicates; empty when none is known. */
    static List<File> of(Project project, JavaCompile javac) {
        Set<File> files = new LinkedHashSet<File>();
        if (javac != null) {
            CompileOptions options = javac.getOptions();
            FileCollection bootstrap = options.getBootstrapClasspath();
            if (bootstrap != null) {
                files.addAll(bootstrap.getFiles());
            }
            Object legacy = call(options, "getBootClasspath");
            if (legacy instanceof String) {
                for (String entry : ((String) legacy).split(File.pathSeparator)) {
                    if (!entry.trim().isEmpty()) {
                        files.add(new File(entry.trim()));
                    }
                }
            }
        }
        Object android = project.getExtensions().findByName("android");
        if (android != null) {
            addFiles(call(android, "getBootClasspath"), files);
        }
        return new ArrayList<File>(files);
    }

    /** Entries of a list of {@code File}s (or of Gradle file values with {@code getAsFile}). */
    private static void addFiles(Object value, Set<File> files) {
        if (!(value instanceof Iterable)) {
            return;
        }
        for (Object entry : (Iterable<?>) value) {
            Object file = entry instanceof File ? entry : call(entry, "getAsFile");
            if (file instanceof File) {
                files.add((File) file);
            }
        }
    }

    /** A public no-argument getter, or null when it does not exist or fails (an SDK not set up). */
    private static Object call(Object target, String name) {
        if (target == null) {
            return null;
        }
        try {
            Method m = target.getClass().getMethod(name);
            m.setAccessible(true);
            return m.invoke(target);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }
}
