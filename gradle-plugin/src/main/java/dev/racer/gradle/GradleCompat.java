package dev.racer.gradle;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.tasks.TaskContainer;

/**
 * The few places where Gradle's API changed between 4.4 and 9: newer methods are called
 * reflectively when present, older ones otherwise. Nothing here uses APIs removed since.
 *
 * <p>Every reflective call goes through an {@link Api} constant, which names the Gradle type that
 * declares the method and its signature; {@code scripts/check-gradle-api.sh} checks each one
 * against the Gradle 8.10 API jar.
 */
final class GradleCompat {
    private GradleCompat() {
    }

    /** A method called reflectively: declaring type, name, return type and parameter types (binary names). */
    enum Api {
        /** Lazy task registration, Gradle 4.9+. */
        TASKS_REGISTER("org.gradle.api.tasks.TaskContainer", "register", "org.gradle.api.tasks.TaskProvider",
                "java.lang.String", "java.lang.Class", "org.gradle.api.Action"),
        /** Gradle 4.9+. */
        TASKS_NAMED("org.gradle.api.tasks.TaskContainer", "named", "org.gradle.api.tasks.TaskProvider",
                "java.lang.String"),
        /** On the {@code TaskProvider} that {@link #TASKS_NAMED} returns. */
        PROVIDER_CONFIGURE("org.gradle.api.NamedDomainObjectProvider", "configure", "void", "org.gradle.api.Action"),
        PROJECT_LAYOUT("org.gradle.api.Project", "getLayout", "org.gradle.api.file.ProjectLayout"),
        LAYOUT_BUILD_DIRECTORY("org.gradle.api.file.ProjectLayout", "getBuildDirectory",
                "org.gradle.api.file.DirectoryProperty"),
        /** On a {@code DirectoryProperty} (declared by {@code FileSystemLocationProperty} in newer versions). */
        PROPERTY_AS_FILE("org.gradle.api.file.DirectoryProperty", "getAsFile", "org.gradle.api.provider.Provider"),
        PROVIDER_GET("org.gradle.api.provider.Provider", "get", "java.lang.Object"),
        PROVIDER_GET_OR_NULL("org.gradle.api.provider.Provider", "getOrNull", "java.lang.Object"),
        /** Gradle 6.1+ on {@code JavaCompile}; Kotlin's compile task has it too. */
        COMPILE_DESTINATION_DIRECTORY("org.gradle.api.tasks.compile.AbstractCompile", "getDestinationDirectory",
                "org.gradle.api.file.DirectoryProperty"),
        /** Removed from {@code JavaCompile} in Gradle 9; still there (deprecated) in 8. */
        COMPILE_DESTINATION_DIR("org.gradle.api.tasks.compile.AbstractCompile", "getDestinationDir", "java.io.File");

        final String owner;
        final String name;
        final String returnType;
        final String[] parameterTypes;

        Api(String owner, String name, String returnType, String... parameterTypes) {
            this.owner = owner;
            this.name = name;
            this.returnType = returnType;
            this.parameterTypes = parameterTypes;
        }

        /** The parameter types, loaded where the plugin's own Gradle classes come from. */
        Class<?>[] parameterClasses() {
            Class<?>[] out = new Class<?>[parameterTypes.length];
            for (int i = 0; i < out.length; i++) {
                try {
                    out[i] = Class.forName(parameterTypes[i], false, GradleCompat.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("racer: " + parameterTypes[i] + " is not on the class path", e);
                }
            }
            return out;
        }

        /** The method on a known type, or null when this Gradle lacks it. */
        Method on(Class<?> type) {
            return method(type, name, parameterClasses());
        }

        /** The method as declared by one of {@code target}'s public interfaces, or null. */
        Method of(Object target) {
            return publicMethod(target, name, parameterClasses());
        }
    }

    /**
     * {@code tasks.register(name, type, action)} (lazy, Gradle 4.9+) or {@code tasks.create(...)}.
     * Returns what {@code dependsOn} accepts: a {@code TaskProvider} or the task.
     */
    static <T extends Task> Object registerTask(Project project, String name, Class<T> type, Action<? super T> action) {
        TaskContainer tasks = project.getTasks();
        Method register = Api.TASKS_REGISTER.on(TaskContainer.class);
        if (register != null) {
            return invoke(register, tasks, name, type, action);
        }
        return tasks.create(name, type, action);
    }

    /** {@code tasks.named(name).configure(action)} (Gradle 4.9+) or {@code action.execute(tasks.getByName(name))}. */
    static void configureTask(Project project, String name, Action<? super Task> action) {
        TaskContainer tasks = project.getTasks();
        Method named = Api.TASKS_NAMED.on(TaskContainer.class);
        if (named != null) {
            Object provider = invoke(named, tasks, name);
            Method configure = Api.PROVIDER_CONFIGURE.of(provider);
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
            Object layout = Api.PROJECT_LAYOUT.on(Project.class).invoke(project);
            Object property = Api.LAYOUT_BUILD_DIRECTORY.of(layout).invoke(layout);
            Object fileProvider = Api.PROPERTY_AS_FILE.of(property).invoke(property);
            Object file = Api.PROVIDER_GET.of(fileProvider).invoke(fileProvider);
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
            Method property = method(task.getClass(), Api.COMPILE_DESTINATION_DIRECTORY.name);
            Object value = property != null ? property.invoke(task) : null;
            if (value != null) {
                Method asFile = Api.PROPERTY_AS_FILE.of(value);
                Object provider = asFile != null ? asFile.invoke(value) : null;
                Method get = provider != null ? Api.PROVIDER_GET_OR_NULL.of(provider) : null;
                Object file = get != null ? get.invoke(provider) : null;
                if (file instanceof File) {
                    return (File) file;
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // fall through to the old API
        }
        try {
            Method old = method(task.getClass(), Api.COMPILE_DESTINATION_DIR.name);
            Object file = old != null ? old.invoke(task) : null;
            return file instanceof File ? (File) file : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
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
