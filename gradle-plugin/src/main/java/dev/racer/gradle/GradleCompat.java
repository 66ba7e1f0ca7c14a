package dev.racer.gradle;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.artifacts.ProjectDependency;
import org.gradle.api.tasks.TaskContainer;

/**
 * The few places where Gradle's API changed between 4.4 and 9: newer methods are called
 * reflectively when present, older ones otherwise. Nothing here uses APIs removed since.
 */
final class GradleCompat {
    private GradleCompat() {
    }

    /**
     * {@code tasks.register(name, type, action)} (lazy, Gradle 4.9+) or {@code tasks.create(...)}.
     * Returns what {@code dependsOn} accepts: a {@code TaskProvider} or the task.
     */
    static <T extends Task> Object registerTask(Project project, String name, Class<T> type, Action<? super T> action) {
        TaskContainer tasks = project.getTasks();
        Method register = method(TaskContainer.class, "register", String.class, Class.class, Action.class);
        if (register != null) {
            return invoke(register, tasks, name, type, action);
        }
        return tasks.create(name, type, action);
    }

    /** {@code tasks.named(name).configure(action)} (Gradle 4.9+) or {@code action.execute(tasks.getByName(name))}. */
    static void configureTask(Project project, String name, Action<? super Task> action) {
        TaskContainer tasks = project.getTasks();
        Method named = method(TaskContainer.class, "named", String.class);
        if (named != null) {
            Object provider = invoke(named, tasks, name);
            Method configure = publicMethod(provider, "configure", Action.class);
            if (configure != null) {
                invoke(configure, provider, action);
                return;
            }
        }
        action.execute(tasks.getByName(name));
    }

    /** The project's build directory. */
    static File buildDir(Project project) {
        // layout.buildDirectory (4.4+ returns a property whose value is a Directory); getBuildDir() is deprecated in 8.
        try {
            Object layout = Project.class.getMethod("getLayout").invoke(project);
            Object property = publicMethod(layout, "getBuildDirectory").invoke(layout);
            Object fileProvider = publicMethod(property, "getAsFile").invoke(property);
            Object file = publicMethod(fileProvider, "get").invoke(fileProvider);
            if (file instanceof File) {
                return (File) file;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // fall through to the old API
        }
        return legacyBuildDir(project);
    }

    @SuppressWarnings("deprecation")
    private static File legacyBuildDir(Project project) {
        return project.getBuildDir();
    }

    /**
     * The output directory of a compile task ({@code JavaCompile}, Kotlin's compile task):
     * {@code getDestinationDirectory()} (a {@code DirectoryProperty}; Gradle 6.1+, Kotlin) when present,
     * else {@code getDestinationDir()} (removed from {@code JavaCompile} in Gradle 9). Null when neither
     * gives a directory.
     */
    static File destinationDir(Task task) {
        try {
            Method property = task.getClass().getMethod("getDestinationDirectory");
            Object value = property.invoke(task);
            if (value != null) {
                Method asFile = publicMethod(value, "getAsFile");
                Object provider = asFile != null ? asFile.invoke(value) : null;
                Method get = provider != null ? publicMethod(provider, "getOrNull") : null;
                Object file = get != null ? get.invoke(provider) : null;
                if (file instanceof File) {
                    return (File) file;
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // fall through to the old API
        }
        try {
            Object file = task.getClass().getMethod("getDestinationDir").invoke(task);
            return file instanceof File ? (File) file : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The path ({@code :lib}) of the project a project dependency points at. */
    static String dependencyPath(ProjectDependency dependency) {
        // ProjectDependency.getPath() is 8.11+; getDependencyProject() is gone in 9.
        Method getPath = method(ProjectDependency.class, "getPath");
        if (getPath != null) {
            Object path = invoke(getPath, dependency);
            if (path instanceof String) {
                return (String) path;
            }
        }
        Method getProject = method(ProjectDependency.class, "getDependencyProject");
        if (getProject != null) {
            Object p = invoke(getProject, dependency);
            if (p instanceof Project) {
                return ((Project) p).getPath();
            }
        }
        return null;
    }

    /** A public method of one of {@code target}'s interfaces (implementation classes need not be public). */
    private static Method publicMethod(Object target, String name, Class<?>... parameters) {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                Method m = interfaceMethod(i, name, parameters);
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    private static Method interfaceMethod(Class<?> iface, String name, Class<?>... parameters) {
        Method m = method(iface, name, parameters);
        if (m != null) {
            return m;
        }
        for (Class<?> parent : iface.getInterfaces()) {
            m = interfaceMethod(parent, name, parameters);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object invoke(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new GradleException("racer: " + method.getName() + " failed: " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new GradleException("racer: cannot call " + method + ": " + e, e);
        }
    }
}
