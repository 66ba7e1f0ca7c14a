package dev.racer.bridge;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Formats an {@link AnalysisResult} for a build console, identically in every build tool: the
 * engine's console text (issues grouped by class and field, the first {@code console_limit} in
 * full, then the counts), diagnostics, then one summary line:
 *
 * <pre>
 * racer: 2 new races found in :app (41 baselined, 1 suppressed, 3 classes, 12 methods, 41 ms); report: file:/.../racer.html
 * </pre>
 *
 * Only new issues (neither baselined nor suppressed) fail a build ({@link AnalysisResult#fails}).
 * When the engine sends no console text, each issue is formatted here instead:
 *
 * <pre>
 * src/main/java/com/example/Account.java:14: THREAD_SAFETY_VIOLATION in Account.withdraw(int): this.balance
 *     Read/Write race. Non-private method `Account.withdraw(...)` reads ...
 *     conflicts with: write in Account.deposit(int) at com/example/Account.java:9 (unlocked)
 *     trace:
 *       com/example/Account.java:14 Account.withdraw(int): access to `this.balance`
 * </pre>
 *
 * Locations are resolved against the source roots when given (printed relative to the base
 * directory), else shown as {@code package/path/File.java:LINE}.
 */
public final class ConsoleReport {
    private final AnalysisResult result;
    private String projectName = "";
    private File reportFile;
    private File baseDir;
    private List<File> sourceRoots = Collections.emptyList();
    private boolean traces = true;
    private int limit = Integer.MAX_VALUE;

    public ConsoleReport(AnalysisResult result) {
        this.result = result;
    }

    public static ConsoleReport of(AnalysisResult result) {
        return new ConsoleReport(result);
    }

    /** Name shown in the summary, e.g. {@code :app} or {@code com.example:app}. */
    public ConsoleReport project(String name) {
        projectName = name == null ? "" : name;
        return this;
    }

    /** The report file named in the summary (null: none). */
    public ConsoleReport reportFile(File file) {
        reportFile = file;
        return this;
    }

    /** Source roots used to turn {@code a/b/File.java} into a path, shown relative to {@code baseDir}. */
    public ConsoleReport sourceRoots(Collection<File> roots, File baseDir) {
        this.sourceRoots = roots == null ? Collections.<File>emptyList() : new ArrayList<File>(roots);
        this.baseDir = baseDir;
        return this;
    }

    /** Whether to print traces and conflicts under each issue (default true). */
    public ConsoleReport traces(boolean show) {
        traces = show;
        return this;
    }

    /** Prints at most this many issues (the summary still counts them all). */
    public ConsoleReport limit(int maxShown) {
        limit = Math.max(0, maxShown);
        return this;
    }

    /**
     * The engine's console text, line by line (issues, groups, input warnings, counts, stale
     * baseline entries); else, from an older engine, the issue blocks, one or more lines each.
     */
    public List<String> issueLines() {
        if (!result.console().isEmpty()) {
            return engineLines();
        }
        List<String> out = new ArrayList<String>();
        int shown = 0;
        for (AnalysisResult.Issue issue : result.issues()) {
            if (shown++ >= limit) {
                out.add("... and " + (result.issues().size() - limit) + " more; see the report");
                break;
            }
            out.add(resolve(issue.sourcePath()) + ":" + issue.line() + ": " + issue.kind() + " in "
                    + method(issue.className(), issue.method(), issue.descriptor()) + ": " + issue.accessPath());
            if (!issue.message().isEmpty()) {
                out.add("    " + issue.message().replace("\n", "\n    "));
            }
            if (!traces) {
                continue;
            }
            for (AnalysisResult.Conflict c : issue.conflicts()) {
                out.add("    conflicts with: " + (c.access().isEmpty() ? "access" : c.access()) + " of "
                        + c.accessPath() + " in " + method(c.className(), c.method(), c.descriptor()) + " at "
                        + resolve(Locations.guessSourcePath(c.className())) + ":" + c.line()
                        + (c.locked() ? " (locked)" : " (unlocked)"));
            }
            if (!issue.trace().isEmpty()) {
                out.add("    trace:");
                for (AnalysisResult.TraceElement t : issue.trace()) {
                    out.add("      " + resolve(Locations.guessSourcePath(t.className())) + ":" + t.line() + " "
                            + method(t.className(), t.method(), t.descriptor())
                            + (t.description().isEmpty() ? "" : ": " + t.description()));
                }
            }
        }
        return out;
    }

    private List<String> engineLines() {
        List<String> out = new ArrayList<String>();
        for (String line : result.console().split("\r?\n", -1)) {
            out.add(line);
        }
        // The text ends with a newline; no empty last line.
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    /** One line per unreadable input. */
    public List<String> diagnosticLines() {
        List<String> out = new ArrayList<String>();
        for (AnalysisResult.Diagnostic d : result.diagnostics()) {
            out.add("racer: warning: " + d.file() + ": " + d.message());
        }
        return out;
    }

    /**
     * {@code racer: N races found in P (C classes, M methods, T ms); report: file:...}; with a baseline
     * or suppressions {@code racer: N new races found in P (B baselined, S suppressed, C classes, ...)}.
     */
    public String summary() {
        AnalysisResult.Stats s = result.stats();
        AnalysisResult.Counts c = result.counts();
        boolean plain = c.baselined() == 0 && c.suppressed() == 0;
        StringBuilder b = new StringBuilder("racer: ");
        if (plain) {
            b.append(c.total() == 0 ? "no races" : count(c.total()));
        } else {
            b.append(c.newIssues() == 0 ? "no new races" : countNew(c.newIssues()));
        }
        b.append(" found");
        if (!projectName.isEmpty()) {
            b.append(" in ").append(projectName);
        }
        b.append(" (");
        if (!plain) {
            b.append(c.baselined()).append(" baselined, ").append(c.suppressed()).append(" suppressed, ");
        }
        b.append(s.classes()).append(s.classes() == 1 ? " class, " : " classes, ")
                .append(s.methodsAnalysed()).append(s.methodsAnalysed() == 1 ? " method, " : " methods, ")
                .append(s.millis()).append(" ms");
        if (!result.diagnostics().isEmpty()) {
            int d = result.diagnostics().size();
            b.append(", ").append(d).append(d == 1 ? " unreadable input" : " unreadable inputs");
        }
        b.append(')');
        if (reportFile != null) {
            b.append("; report: ").append(reportFile.toURI());
        }
        return b.toString();
    }

    /** Whether {@link #issueLines()} is the engine's text, which lists the unreadable inputs itself. */
    public boolean hasEngineText() {
        return !result.console().isEmpty();
    }

    /** Issues, diagnostics (unless the engine's text has them), then the summary line. */
    public List<String> lines() {
        List<String> out = new ArrayList<String>(issueLines());
        if (!hasEngineText()) {
            out.addAll(diagnosticLines());
        }
        out.add(summary());
        return out;
    }

    /** {@link #lines()} joined with newlines. */
    public String render() {
        StringBuilder b = new StringBuilder();
        for (String line : lines()) {
            b.append(line).append('\n');
        }
        return b.toString();
    }

    /**
     * The message a build failure should carry:
     * {@code racer found N races in P (more than the M allowed); see file:...}; with a baseline or
     * suppressions {@code racer found N new races in P (B baselined, S suppressed); see file:...}.
     */
    public String failureMessage(int allowed) {
        AnalysisResult.Counts c = result.counts();
        boolean plain = c.baselined() == 0 && c.suppressed() == 0;
        StringBuilder b = new StringBuilder("racer found ")
                .append(plain ? count(c.newIssues()) : countNew(c.newIssues()));
        if (!projectName.isEmpty()) {
            b.append(" in ").append(projectName);
        }
        List<String> notes = new ArrayList<String>();
        if (allowed > 0) {
            notes.add("more than the " + allowed + " allowed");
        }
        if (!plain) {
            notes.add(c.baselined() + " baselined, " + c.suppressed() + " suppressed");
        }
        if (!notes.isEmpty()) {
            b.append(" (").append(String.join("; ", notes)).append(')');
        }
        if (reportFile != null) {
            b.append("; see the report at ").append(reportFile.toURI());
        }
        return b.toString();
    }

    /** {@code 1 race}, {@code 3 races}. */
    public static String count(long n) {
        return n + (n == 1 ? " race" : " races");
    }

    /** {@code 1 new race}, {@code 3 new races}. */
    public static String countNew(long n) {
        return n + (n == 1 ? " new race" : " new races");
    }

    /** {@code Account.withdraw(int)}; constructors as {@code Account(int)}. */
    static String method(String className, String method, String descriptor) {
        String simple = Locations.simpleName(className);
        String params = parameters(descriptor);
        if ("<init>".equals(method)) {
            return simple + "(" + params + ")";
        }
        if ("<clinit>".equals(method)) {
            return simple + ".<clinit>()";
        }
        return simple + "." + method + "(" + params + ")";
    }

    /** {@code (ILjava/lang/String;[J)V} as {@code int, String, long[]}; "" when unparsable. */
    static String parameters(String descriptor) {
        if (descriptor == null || !descriptor.startsWith("(")) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        int i = 1;
        try {
            while (descriptor.charAt(i) != ')') {
                int dims = 0;
                while (descriptor.charAt(i) == '[') {
                    dims++;
                    i++;
                }
                String type;
                char c = descriptor.charAt(i);
                if (c == 'L') {
                    int end = descriptor.indexOf(';', i);
                    if (end < 0) {
                        return "";
                    }
                    String name = descriptor.substring(i + 1, end);
                    type = Locations.simpleName(name.replace('/', '.'));
                    i = end + 1;
                } else {
                    type = primitive(c);
                    if (type == null) {
                        return "";
                    }
                    i++;
                }
                if (out.length() > 0) {
                    out.append(", ");
                }
                out.append(type);
                for (int d = 0; d < dims; d++) {
                    out.append("[]");
                }
            }
        } catch (StringIndexOutOfBoundsException e) {
            return "";
        }
        return out.toString();
    }

    private static String primitive(char c) {
        switch (c) {
            case 'Z':
                return "boolean";
            case 'B':
                return "byte";
            case 'C':
                return "char";
            case 'S':
                return "short";
            case 'I':
                return "int";
            case 'J':
                return "long";
            case 'F':
                return "float";
            case 'D':
                return "double";
            default:
                return null;
        }
    }

    /** A package-relative source path resolved against the source roots, relative to the base dir. */
    private String resolve(String packageRelative) {
        for (File root : sourceRoots) {
            File candidate = new File(root, packageRelative);
            if (candidate.isFile()) {
                return relativise(candidate);
            }
        }
        return packageRelative;
    }

    private String relativise(File file) {
        if (baseDir == null) {
            return file.getPath();
        }
        String base = baseDir.getAbsoluteFile().toURI().normalize().getPath();
        String path = file.getAbsoluteFile().toURI().normalize().getPath();
        if (path.startsWith(base)) {
            return path.substring(base.length());
        }
        return file.getAbsolutePath();
    }
}
