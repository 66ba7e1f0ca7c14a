package dev.racer.gradle;

import java.lang.reflect.Method;

/**
 * Looks up every method that {@link GradleCompat} calls reflectively ({@link GradleCompat.Api}) in
 * the Gradle API on the class path, with its parameter types, and checks its return type. Prints
 * {@code ok   <signature>} or {@code FAIL <signature>: <why>} per method; exits with 1 when one is
 * missing. Run by {@code scripts/check-gradle-api.sh} against the Gradle 8.10 API jar.
 */
final class GradleApiCheck {
    private GradleApiCheck() {
    }

    public static void main(String[] args) {
        int failed = 0;
        for (GradleCompat.Api api : GradleCompat.Api.values()) {
            String signature = api.owner + "." + api.name + "(" + String.join(", ", api.parameterTypes) + "): "
                    + api.returnType;
            String problem = problem(api);
            if (problem == null) {
                System.out.println("ok   " + signature);
            } else {
                failed++;
                System.out.println("FAIL " + signature + ": " + problem);
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /** Null when the method exists with a compatible return type, else what is wrong. */
    private static String problem(GradleCompat.Api api) {
        try {
            Class<?> owner = Class.forName(api.owner, false, GradleApiCheck.class.getClassLoader());
            Method method = owner.getMethod(api.name, api.parameterClasses());
            Class<?> expected = "void".equals(api.returnType) ? void.class
                    : Class.forName(api.returnType, false, GradleApiCheck.class.getClassLoader());
            if (!expected.isAssignableFrom(method.getReturnType())) {
                return "returns " + method.getReturnType().getName();
            }
            return null;
        } catch (ClassNotFoundException e) {
            return "class not found: " + e.getMessage();
        } catch (NoSuchMethodException e) {
            return "no such method";
        } catch (RuntimeException | LinkageError e) {
            return e.toString();
        }
    }
}
