package dev.racer.bridge;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles small Java sources with the real javac for the bridge tests. */
final class Fixtures {
    private Fixtures() {
    }

    static final String THREAD_SAFE =
            "package fixture;\n"
            + "import java.lang.annotation.*;\n"
            + "@Retention(RetentionPolicy.CLASS) @Target({ElementType.TYPE, ElementType.METHOD})\n"
            + "public @interface ThreadSafe {}\n";

    /** A {@code @ThreadSafe} class with an unprotected write and a read/write race on {@code count}. */
    static final String RACY =
            "package fixture;\n"
            + "@ThreadSafe\n"
            + "public class Racy {\n"
            + "  private int count;\n"
            + "  private final Object lock = new Object();\n"
            + "  public void increment() {\n"
            + "    count++;\n"
            + "  }\n"
            + "  public int get() {\n"
            + "    synchronized (lock) { return count; }\n"
            + "  }\n"
            + "}\n";

    /** Compiles {@code sources} (name → text, {@code a/b/C.java}) into {@code dir/classes}; returns that dir. */
    static File compile(Path dir, String... namesAndSources) throws IOException {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<String>(Arrays.asList("-g", "-d", classes.toString()));
        for (int i = 0; i < namesAndSources.length; i += 2) {
            Path file = src.resolve(namesAndSources[i]);
            Files.createDirectories(file.getParent());
            Files.write(file, namesAndSources[i + 1].getBytes(StandardCharsets.UTF_8));
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("the bridge tests need a JDK (javax.tools compiler)");
        }
        int rc = javac.run(null, null, null, args.toArray(new String[0]));
        if (rc != 0) {
            throw new IllegalStateException("javac failed with exit code " + rc);
        }
        return classes.toFile();
    }

    static File racyClasses(Path dir) throws IOException {
        return compile(dir, "fixture/ThreadSafe.java", THREAD_SAFE, "fixture/Racy.java", RACY);
    }
}
