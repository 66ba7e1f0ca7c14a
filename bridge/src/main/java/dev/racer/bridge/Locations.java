package dev.racer.bridge;

/** Source locations derived from binary class names. */
final class Locations {
    private Locations() {
    }

    /** {@code a/b/} for {@code a.b.C}, "" for the default package. */
    static String packagePath(String binaryClassName) {
        int dot = binaryClassName.lastIndexOf('.');
        return dot < 0 ? "" : binaryClassName.substring(0, dot + 1).replace('.', '/');
    }

    /** {@code a/b/File.java} from the class name and its {@code SourceFile} attribute. */
    static String sourcePath(String binaryClassName, String sourceFile) {
        if (sourceFile == null || sourceFile.isEmpty()) {
            return guessSourcePath(binaryClassName);
        }
        return packagePath(binaryClassName) + sourceFile;
    }

    /** {@code a/b/Outer.java} for {@code a.b.Outer$Inner}: the usual Java layout. */
    static String guessSourcePath(String binaryClassName) {
        int dot = binaryClassName.lastIndexOf('.');
        String simple = dot < 0 ? binaryClassName : binaryClassName.substring(dot + 1);
        int dollar = simple.indexOf('$');
        if (dollar > 0) {
            simple = simple.substring(0, dollar);
        }
        return packagePath(binaryClassName) + simple + ".java";
    }

    /** {@code Outer.Inner} for {@code a.b.Outer$Inner}. */
    static String simpleName(String binaryClassName) {
        int dot = binaryClassName.lastIndexOf('.');
        return (dot < 0 ? binaryClassName : binaryClassName.substring(dot + 1)).replace('$', '.');
    }
}
