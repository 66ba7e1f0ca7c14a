package dev.racer.bridge;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Loads {@code libracer_jni} once per class loader.
 *
 * <p>Lookup order:
 * <ol>
 *   <li>the system property {@value #LIBRARY_PROPERTY} (an absolute path to the library);</li>
 *   <li>the library bundled in this jar as resource
 *       {@code /dev/racer/bridge/native/<os>-<arch>/libracer_jni.so}, extracted once into a cache
 *       directory keyed by its SHA-256: {@value #CACHE_PROPERTY} if set, else
 *       {@code ${user.home}/.cache/racer/native}, else {@code ${java.io.tmpdir}/racer-<user>/native}.
 *       The file is written to a temporary name and atomically renamed, so parallel JVMs and threads
 *       never see a partial library.</li>
 * </ol>
 * The {@code racer} executable for child-process analyses is bundled and extracted the same way
 * ({@link #executable()}).
 * A JVM may hold a given library file in one class loader only; when another class loader (a second
 * Gradle buildscript class path, a reloaded plugin) already holds the cached copy, a private copy is
 * made for this class loader.
 *
 * <p>After loading, the engine's {@code version()} must equal the version this jar was built for.
 */
public final class NativeLibrary {
    /** System property: absolute path of a {@code libracer_jni} to load instead of the bundled one. */
    public static final String LIBRARY_PROPERTY = "racer.native.library";
    /** Accepted alias of {@link #LIBRARY_PROPERTY}. */
    public static final String LIBRARY_PROPERTY_ALIAS = "racer.native.path";
    /** System property: directory under which the bundled library is extracted. */
    public static final String CACHE_PROPERTY = "racer.native.cache";

    /** System property: absolute path of a {@code racer} executable to run instead of the bundled one. */
    public static final String EXECUTABLE_PROPERTY = "racer.native.executable";

    static final String LIBRARY_BASE_NAME = "racer_jni";
    static final String EXECUTABLE_NAME = "racer";
    private static final String RESOURCE_ROOT = "/dev/racer/bridge/native/";
    private static final String PROPERTIES_RESOURCE = "/dev/racer/bridge/racer-bridge.properties";

    private NativeLibrary() {
    }

    /** Loads the library (first call only) and checks its version; throws {@link RacerException} on failure. */
    public static void ensureLoaded() {
        if (Holder.FAILURE != null) {
            throw new RacerException(Holder.FAILURE.getMessage(), Holder.FAILURE);
        }
    }

    /** Where the library was loaded from (loads it if needed). */
    public static String loadedFrom() {
        ensureLoaded();
        return Holder.LOADED_FROM;
    }

    /** The engine version this jar was built for (from the jar's generated properties). */
    public static String expectedEngineVersion() {
        return buildProperties().getProperty("engine.version", "unknown");
    }

    /** The version of this bridge jar. */
    public static String bridgeVersion() {
        return buildProperties().getProperty("bridge.version", "unknown");
    }

    /** {@code <os>-<arch>} of this JVM, e.g. {@code linux-x86_64}, or null if unsupported. */
    public static String platform() {
        String os = normaliseOs(System.getProperty("os.name", ""));
        String arch = normaliseArch(System.getProperty("os.arch", ""));
        return os == null || arch == null ? null : os + "-" + arch;
    }

    private static final class Holder {
        static final RacerException FAILURE;
        static final String LOADED_FROM;

        static {
            RacerException failure = null;
            String from = null;
            try {
                from = load();
                checkVersion(from);
            } catch (RacerException e) {
                failure = e;
            } catch (RuntimeException | LinkageError e) {
                failure = new RacerException("racer: cannot load the native library: " + e, e);
            }
            FAILURE = failure;
            LOADED_FROM = from;
        }
    }

    private static String load() {
        String override = System.getProperty(LIBRARY_PROPERTY);
        if (override == null || override.trim().isEmpty()) {
            override = System.getProperty(LIBRARY_PROPERTY_ALIAS);
        }
        if (override != null && !override.trim().isEmpty()) {
            File file = new File(override.trim());
            if (!file.isAbsolute() || !file.isFile()) {
                throw new RacerException("racer: -D" + LIBRARY_PROPERTY + "=" + override
                        + " does not name an existing library file (an absolute path is required)");
            }
            systemLoad(file.getAbsolutePath());
            return file.getAbsolutePath();
        }

        String platform = platform();
        String libraryName = System.mapLibraryName(LIBRARY_BASE_NAME);
        if (platform == null) {
            throw new RacerException("racer: unsupported platform " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + "; the bundled native library supports "
                    + bundledPlatform() + " only (set -D" + LIBRARY_PROPERTY
                    + "=/path/to/" + libraryName + " to use a library built for this machine)");
        }
        return loadExtracted(extractBundled(platform, libraryName, false));
    }

    /**
     * The {@code racer} executable for child-process analyses: the system property
     * {@value #EXECUTABLE_PROPERTY} if set, else the one bundled beside the library, extracted into
     * the same cache directory in the same way.
     */
    public static Path executable() {
        String override = System.getProperty(EXECUTABLE_PROPERTY);
        if (override != null && !override.trim().isEmpty()) {
            File file = new File(override.trim());
            if (!file.isAbsolute() || !file.canExecute()) {
                throw new RacerException("racer: -D" + EXECUTABLE_PROPERTY + "=" + override
                        + " does not name an executable file (an absolute path is required)");
            }
            return file.toPath();
        }
        String platform = platform();
        if (platform == null) {
            throw new RacerException("racer: unsupported platform " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + "; the bundled racer executable supports "
                    + bundledPlatform() + " only (set -D" + EXECUTABLE_PROPERTY + "=/path/to/racer)");
        }
        return extractBundled(platform, EXECUTABLE_NAME, true);
    }

    /**
     * Extracts a bundled native file into a cache directory named after its SHA-256 (once: a
     * complete copy is reused) and returns its path.
     */
    private static Path extractBundled(String platform, String fileName, boolean executable) {
        String resource = RESOURCE_ROOT + platform + "/" + fileName;
        // "<sha256> <size>", written at build time; without it the file is read and hashed here.
        String[] recorded = readChecksum(resource + ".sha256");
        byte[] bytes = null;
        String sha;
        long size;
        if (recorded != null) {
            sha = recorded[0];
            size = Long.parseLong(recorded[1]);
        } else {
            bytes = readResource(resource);
            if (bytes == null) {
                throw missingResource(platform, resource, fileName);
            }
            sha = sha256(bytes);
            size = bytes.length;
        }
        List<String> problems = new ArrayList<String>();
        for (File base : cacheRoots()) {
            Path target = base.toPath().resolve(sha).resolve(fileName);
            try {
                // The directory is named after the content's hash and files only appear there by
                // atomic rename, so a file of the right size is the complete file.
                if (!(Files.isRegularFile(target) && Files.size(target) == size)) {
                    if (bytes == null) {
                        bytes = readResource(resource);
                        if (bytes == null) {
                            throw missingResource(platform, resource, fileName);
                        }
                    }
                    extract(target, bytes, executable);
                }
            } catch (IOException e) {
                problems.add(base + ": " + e);
                continue;
            }
            return target;
        }
        throw new RacerException("racer: cannot extract " + fileName + " to a cache directory: " + problems);
    }

    private static RacerException missingResource(String platform, String resource, String fileName) {
        String property = fileName.equals(EXECUTABLE_NAME) ? EXECUTABLE_PROPERTY : LIBRARY_PROPERTY;
        return new RacerException("racer: no " + fileName + " for " + platform + " in this jar (resource "
                + resource + " is missing); the jar bundles " + bundledPlatform() + " (set -D"
                + property + "=/path/to/" + fileName + " to use one built for this machine)");
    }

    private static String[] readChecksum(String name) {
        InputStream in = NativeLibrary.class.getResourceAsStream(name);
        if (in == null) {
            return null;
        }
        try {
            byte[] buffer = new byte[256];
            int n = 0;
            int r;
            while (n < buffer.length && (r = in.read(buffer, n, buffer.length - n)) > 0) {
                n += r;
            }
            String[] parts = new String(buffer, 0, n, "US-ASCII").trim().split("\\s+");
            if (parts.length == 2 && parts[0].matches("[0-9a-f]{64}") && parts[1].matches("[0-9]{1,12}")) {
                return parts;
            }
            return null;
        } catch (IOException e) {
            return null;
        } finally {
            closeQuietly(in);
        }
    }

    /** Loads the cached copy, or a private copy when another class loader holds the cached one. */
    private static String loadExtracted(Path target) {
        try {
            System.load(target.toString());
            return target.toString();
        } catch (UnsatisfiedLinkError e) {
            if (e.getMessage() == null || !e.getMessage().contains("another classloader")) {
                throw linkFailure(target.toString(), e);
            }
        }
        try {
            Path copy = Files.createTempFile(target.getParent(), "libracer_jni-", ".so");
            Files.copy(target, copy, StandardCopyOption.REPLACE_EXISTING);
            copy.toFile().deleteOnExit();
            systemLoad(copy.toString());
            return copy.toString();
        } catch (IOException e) {
            throw new RacerException("racer: cannot copy the native library for this class loader into "
                    + target.getParent() + ": " + e, e);
        }
    }

    private static void systemLoad(String path) {
        try {
            System.load(path);
        } catch (UnsatisfiedLinkError e) {
            throw linkFailure(path, e);
        }
    }

    private static RacerException linkFailure(String path, UnsatisfiedLinkError e) {
        return new RacerException("racer: cannot load the native library " + path + " on "
                + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ": " + e.getMessage(), e);
    }

    private static void extract(Path target, byte[] bytes, boolean executable) throws IOException {
        Path dir = target.getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, target.getFileName() + ".", ".tmp");
        try {
            Files.write(temp, bytes);
            if (executable && !temp.toFile().setExecutable(true)) {
                throw new IOException("cannot make " + temp + " executable");
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                try {
                    Files.move(temp, target);
                } catch (FileAlreadyExistsException raced) {
                    // Another process extracted it meanwhile; its copy has the same content.
                }
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static List<File> cacheRoots() {
        List<File> roots = new ArrayList<File>();
        String configured = System.getProperty(CACHE_PROPERTY);
        if (configured != null && !configured.trim().isEmpty()) {
            roots.add(new File(configured.trim()));
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.isEmpty() && !"?".equals(home)) {
            roots.add(new File(home, ".cache/racer/native"));
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        roots.add(new File(System.getProperty("java.io.tmpdir"), "racer-" + user + "/native"));
        return roots;
    }

    private static void checkVersion(String loadedFrom) {
        String expected = expectedEngineVersion();
        String actual;
        try {
            actual = RacerNative.version();
        } catch (UnsatisfiedLinkError e) {
            throw new RacerException("racer: the native library " + loadedFrom
                    + " does not export the racer bridge (" + e.getMessage() + ")", e);
        }
        if (!expected.equals(actual)) {
            throw new RacerException("racer: native library version " + actual + " (" + loadedFrom
                    + ") does not match version " + expected + " expected by racer-bridge "
                    + bridgeVersion() + "; rebuild the plugin with a matching engine, or point -D"
                    + LIBRARY_PROPERTY + " at a matching library");
        }
    }

    private static String bundledPlatform() {
        return buildProperties().getProperty("native.platform", "linux-x86_64");
    }

    private static Properties buildProperties() {
        Properties properties = new Properties();
        InputStream in = NativeLibrary.class.getResourceAsStream(PROPERTIES_RESOURCE);
        if (in != null) {
            try {
                properties.load(in);
            } catch (IOException e) {
                // An unreadable resource in our own jar: leave the defaults.
            } finally {
                closeQuietly(in);
            }
        }
        return properties;
    }

    private static byte[] readResource(String name) {
        InputStream in = NativeLibrary.class.getResourceAsStream(name);
        if (in == null) {
            return null;
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(8 << 20);
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new RacerException("racer: cannot read the bundled native library " + name + ": " + e, e);
        } finally {
            closeQuietly(in);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            StringBuilder hex = new StringBuilder(digest.length * 2);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    private static String normaliseOs(String name) {
        String os = name.toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            return "linux";
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return "macos";
        }
        if (os.startsWith("windows")) {
            return "windows";
        }
        return null;
    }

    private static String normaliseArch(String name) {
        String arch = name.toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x64")) {
            return "x86_64";
        }
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            return "aarch64";
        }
        return null;
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
