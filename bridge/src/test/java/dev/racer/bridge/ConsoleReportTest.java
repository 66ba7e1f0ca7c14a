package dev.racer.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleReportTest {
    static final String RESPONSE = "{\"tool\":{\"name\":\"racer\",\"version\":\"0.1.0\"},\"issues\":[{"
            + "\"kind\":\"THREAD_SAFETY_VIOLATION\",\"class\":\"com.example.app.Service\",\"method\":\"update\","
            + "\"descriptor\":\"(I[Ljava/lang/String;)V\",\"line\":23,\"source_file\":\"Service.java\","
            + "\"access_path\":\"this.counter.count\",\"message\":\"Unprotected write.\","
            + "\"trace\":[{\"class\":\"com.example.app.Service\",\"method\":\"update\",\"descriptor\":\"(I[Ljava/lang/String;)V\","
            + "\"line\":23,\"description\":\"call to Counter.increment()\"},"
            + "{\"class\":\"com.example.lib.Counter\",\"method\":\"increment\",\"descriptor\":\"()V\",\"line\":9,"
            + "\"description\":\"access to `this.count`\"}],"
            + "\"conflicts\":[{\"class\":\"com.example.app.Service$Inner\",\"method\":\"<init>\",\"descriptor\":\"()V\","
            + "\"line\":40,\"access_path\":\"this.counter.count\",\"access\":\"write\",\"locked\":true,\"trace\":[]}]}],"
            + "\"diagnostics\":[{\"file\":\"b/C.class\",\"message\":\"truncated class file\"}],"
            + "\"stats\":{\"classes\":2,\"methods_analysed\":5,\"upstream_classes\":1,\"upstream_methods\":3,\"millis\":7}}";

    @TempDir
    Path tmp;

    @Test
    void formatsIssuesTracesDiagnosticsAndSummary() {
        AnalysisResult r = AnalysisResult.parse(RESPONSE);
        File report = new File("/r/racer.html");
        List<String> lines = ConsoleReport.of(r).project(":app").reportFile(report).lines();
        assertEquals(Arrays.asList(
                "com/example/app/Service.java:23: THREAD_SAFETY_VIOLATION in Service.update(int, String[]): this.counter.count",
                "    Unprotected write.",
                "    conflicts with: write of this.counter.count in Service.Inner() at com/example/app/Service.java:40 (locked)",
                "    trace:",
                "      com/example/app/Service.java:23 Service.update(int, String[]): call to Counter.increment()",
                "      com/example/lib/Counter.java:9 Counter.increment(): access to `this.count`",
                "racer: warning: b/C.class: truncated class file",
                "racer: 1 race found in :app (2 classes, 5 methods, 7 ms, 1 unreadable input); report: "
                        + report.toURI()),
                lines);
        assertEquals("racer found 1 race in :app; see the report at " + report.toURI(),
                ConsoleReport.of(r).project(":app").reportFile(report).failureMessage(0));
    }

    @Test
    void resolvesLocationsAgainstSourceRoots() throws Exception {
        Path root = tmp.resolve("src/main/java");
        Files.createDirectories(root.resolve("com/example/app"));
        Files.write(root.resolve("com/example/app/Service.java"), new byte[0]);
        AnalysisResult r = AnalysisResult.parse(RESPONSE);
        String first = ConsoleReport.of(r).traces(false)
                .sourceRoots(Collections.singletonList(root.toFile()), tmp.toFile()).issueLines().get(0);
        assertEquals("src/main/java/com/example/app/Service.java:23: THREAD_SAFETY_VIOLATION in "
                + "Service.update(int, String[]): this.counter.count", first);
    }

    @Test
    void summarisesACleanRun() {
        AnalysisResult r = AnalysisResult.parse("{\"tool\":{\"name\":\"racer\",\"version\":\"0.1.0\"},\"issues\":[],"
                + "\"diagnostics\":[],\"stats\":{\"classes\":1,\"methods_analysed\":1,\"millis\":0}}");
        assertEquals(Collections.singletonList("racer: no races found (1 class, 1 method, 0 ms)"),
                ConsoleReport.of(r).lines());
    }

    /** A response of an engine with a baseline: one new, one baselined and one suppressed issue. */
    static final String ADOPTED = "{\"tool\":{\"name\":\"racer\",\"version\":\"0.1.0\"},\"issues\":["
            + issue("add", 11, "\"baseline\":\"new\",\"suppressed\":null") + ","
            + issue("total", 15, "\"baseline\":\"unchanged\",\"suppressed\":null") + ","
            + issue("reset", 19, "\"baseline\":\"new\",\"suppressed\":{\"annotation\":\"SuppressRace\","
                    + "\"value\":\"all\",\"reason\":\"reviewed\"}") + "],"
            + "\"diagnostics\":[],\"stats\":{\"classes\":1,\"methods_analysed\":3,\"millis\":2},"
            + "\"counts\":{\"total\":3,\"new\":1,\"baselined\":1,\"suppressed\":1,\"stale_baseline_entries\":2},"
            + "\"console\":\"Stats.total: 3 reports in 3 methods\\n  Stats.java:11 add\\n1 new, 1 baselined\\n\"}";

    private static String issue(String method, int line, String adoption) {
        return "{\"kind\":\"THREAD_SAFETY_VIOLATION\",\"class\":\"a.Stats\",\"method\":\"" + method + "\","
                + "\"descriptor\":\"()V\",\"line\":" + line + ",\"source_file\":\"Stats.java\","
                + "\"access_path\":\"this.total\",\"message\":\"\",\"trace\":[],\"conflicts\":[]," + adoption + "}";
    }

    @Test
    void parsesCountsBaselineStateAndSuppressions() {
        AnalysisResult r = AnalysisResult.parse(ADOPTED);
        AnalysisResult.Counts c = r.counts();
        assertEquals(Arrays.asList(3L, 1L, 1L, 1L, 2L),
                Arrays.asList(c.total(), c.newIssues(), c.baselined(), c.suppressed(), c.staleBaselineEntries()));
        assertEquals(Arrays.asList(true, false, false), Arrays.asList(
                r.issues().get(0).isNew(), r.issues().get(1).isNew(), r.issues().get(2).isNew()));
        assertEquals("unchanged", r.issues().get(1).baseline());
        AnalysisResult.Suppression s = r.issues().get(2).suppressed();
        assertEquals(Arrays.asList("SuppressRace", "all", "reviewed"),
                Arrays.asList(s.annotation(), s.value(), s.reason()));
        assertEquals(true, r.fails(0));
        assertEquals(false, r.fails(1));
    }

    @Test
    void printsTheEngineConsoleTextThenTheSummary() {
        AnalysisResult r = AnalysisResult.parse(ADOPTED);
        File report = new File("/r/racer.html");
        assertEquals(Arrays.asList(
                "Stats.total: 3 reports in 3 methods",
                "  Stats.java:11 add",
                "1 new, 1 baselined",
                "racer: 1 new race found in :app (1 baselined, 1 suppressed, 1 class, 3 methods, 2 ms); report: "
                        + report.toURI()),
                ConsoleReport.of(r).project(":app").reportFile(report).lines());
        assertEquals("racer found 1 new race in :app (1 baselined, 1 suppressed); see the report at " + report.toURI(),
                ConsoleReport.of(r).project(":app").reportFile(report).failureMessage(0));
    }

    @Test
    void anEngineWithoutCountsMakesEveryIssueNew() {
        AnalysisResult r = AnalysisResult.parse(RESPONSE);
        assertEquals(1L, r.counts().newIssues());
        assertEquals(1L, r.counts().total());
        assertEquals(true, r.issues().get(0).isNew());
        assertEquals("", r.console());
    }
}
