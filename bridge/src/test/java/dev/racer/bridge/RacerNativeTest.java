package dev.racer.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real calls into the bundled libracer_jni. */
class RacerNativeTest {
    @TempDir
    Path tmp;

    @Test
    void engineVersionMatchesTheJar() {
        assertEquals(NativeLibrary.expectedEngineVersion(), Racer.engineVersion());
        assertEquals("0.1.0", Racer.bridgeVersion());
        assertEquals("linux-x86_64", NativeLibrary.platform());
    }

    @Test
    void bundledLibraryIsExtractedUnderItsHash() {
        String from = NativeLibrary.loadedFrom();
        File file = new File(from);
        assertTrue(file.isFile(), from);
        String override = System.getProperty(NativeLibrary.LIBRARY_PROPERTY);
        if (override == null) {
            assertTrue(file.getParentFile().getName().matches("[0-9a-f]{64}"), from);
        }
    }

    @Test
    void malformedRequestJsonThrowsRacerException() {
        RacerException e = assertThrows(RacerException.class, () -> Racer.analyzeJson("{not json"));
        assertTrue(e.getMessage().contains("malformed"), e.getMessage());
    }

    @Test
    void unknownRequestFieldThrowsRacerException() {
        assertThrows(RacerException.class,
                () -> Racer.analyzeJson("{\"request_version\":" + AnalysisRequest.REQUEST_VERSION + ",\"no_such_field\":true}"));
    }

    @Test
    void wrongRequestVersionThrowsRacerException() {
        RacerException e = assertThrows(RacerException.class, () -> Racer.analyzeJson("{\"request_version\":99}"));
        assertTrue(e.getMessage().contains("99"), e.getMessage());
    }

    @Test
    void requestWithoutInputsIsAnErrorOrAnEmptyResult() {
        AnalysisResult r;
        try {
            r = Racer.analyze(AnalysisRequest.builder().build());
        } catch (RacerException e) {
            assertTrue(e.getMessage().contains("input"), e.getMessage());
            return;
        }
        assertTrue(r.issues().isEmpty());
        assertEquals("racer", r.toolName());
    }

    @Test
    void nonexistentInputIsAnErrorOrADiagnostic() {
        File missing = tmp.resolve("does/not/exist").toFile();
        AnalysisResult r;
        try {
            r = Racer.analyze(AnalysisRequest.builder().input(missing).build());
        } catch (RacerException e) {
            assertTrue(e.getMessage().contains("exist"), e.getMessage());
            return;
        }
        assertFalse(r.diagnostics().isEmpty(), "a missing input must give a RacerException or a diagnostic");
        assertTrue(r.diagnostics().get(0).file().contains("exist"), r.diagnostics().toString());
    }

    @Test
    void truncatedClassFileIsAnErrorOrADiagnosticNotACrash() throws Exception {
        File classes = Fixtures.racyClasses(tmp);
        Path victim = classes.toPath().resolve("fixture/Racy.class");
        byte[] bytes = Files.readAllBytes(victim);
        Files.write(victim, java.util.Arrays.copyOf(bytes, 20));
        AnalysisResult r;
        try {
            r = Racer.analyze(AnalysisRequest.builder().input(classes).build());
        } catch (RacerException e) {
            assertTrue(e.getMessage().contains("Racy"), e.getMessage());
            return;
        }
        assertFalse(r.diagnostics().isEmpty(), "a truncated class must give a RacerException or a diagnostic");
        assertTrue(r.diagnostics().get(0).file().contains("Racy.class"), r.diagnostics().toString());
    }

    @Test
    void findsTheRaceAndWritesReportsAndSummaries() throws Exception {
        File classes = Fixtures.racyClasses(tmp);
        File reports = tmp.resolve("reports").toFile();
        AnalysisRequest request = AnalysisRequest.builder()
                .input(classes)
                .sourcePath(tmp.resolve("src").toFile())
                .summariesOut(new File(reports, "summaries.json"))
                .report(ReportFormat.JSON, new File(reports, "racer.json"))
                .report(ReportFormat.TEXT, new File(reports, "racer.txt"))
                .report(ReportFormat.SARIF, new File(reports, "racer.sarif"))
                .report(ReportFormat.HTML, new File(reports, "racer.html"))
                .build();
        AnalysisResult r = Racer.analyze(request);
        assertFalse(r.issues().isEmpty(), "expected races in fixture.Racy");
        boolean write = false;
        for (AnalysisResult.Issue i : r.issues()) {
            assertEquals("fixture.Racy", i.className());
            assertEquals("Racy.java", i.sourceFile());
            assertEquals("this.count", i.accessPath());
            if (i.method().equals("increment")) {
                write = true;
                assertEquals(7, i.line());
                assertEquals("fixture/Racy.java:7", i.location());
            }
        }
        assertTrue(write, "the unprotected write in increment() must be reported");
        for (String name : new String[] {"summaries.json", "racer.json", "racer.txt", "racer.sarif", "racer.html"}) {
            File f = new File(reports, name);
            assertTrue(f.isFile() && f.length() > 0, name + " was not written");
        }
        String text = new String(Files.readAllBytes(new File(reports, "racer.txt").toPath()), StandardCharsets.UTF_8);
        assertTrue(text.contains("Racy"), text);
        assertTrue(ConsoleReport.of(r).render().contains("fixture/Racy.java:7: error: THREAD_SAFETY_VIOLATION"));
    }

    @Test
    void baselineRoundTripLeavesNoNewIssues() throws Exception {
        File classes = Fixtures.racyClasses(tmp);
        File baseline = tmp.resolve("racer-baseline.json").toFile();
        AnalysisResult first = Racer.analyze(AnalysisRequest.builder().input(classes).writeBaseline(baseline).build());
        assertTrue(baseline.isFile() && baseline.length() > 0, "the baseline was not written");
        assertTrue(first.counts().total() > 0);
        assertEquals(first.counts().total(), first.counts().newIssues());
        assertTrue(first.fails(0));

        AnalysisResult second = Racer.analyze(AnalysisRequest.builder().input(classes).baseline(baseline).build());
        assertEquals(first.counts().total(), second.counts().total());
        assertEquals(0L, second.counts().newIssues());
        assertEquals(second.counts().total(), second.counts().baselined());
        assertEquals(0L, second.counts().staleBaselineEntries());
        assertFalse(second.fails(0));
        for (AnalysisResult.Issue issue : second.issues()) {
            assertTrue(issue.isBaselined(), issue.location());
            assertFalse(issue.isNew(), issue.location());
        }
        assertFalse(second.console().isEmpty(), "the engine sends the console text");
    }

    @Test
    void parallelCallsFromSeveralThreadsAgree() throws Exception {
        final File classes = Fixtures.racyClasses(tmp);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<String>> futures = new ArrayList<Future<String>>();
            for (int i = 0; i < 24; i++) {
                final int n = i;
                futures.add(pool.submit(new Callable<String>() {
                    @Override
                    public String call() {
                        if (n % 5 == 4) {
                            // Interleave failing requests: they must not disturb the others.
                            try {
                                Racer.analyzeJson("{\"request_version\":" + AnalysisRequest.REQUEST_VERSION + ",\"inputs\":[");
                            } catch (RacerException expected) {
                                return "error";
                            }
                            return "no error";
                        }
                        File summary = tmp.resolve("summaries-" + n + ".json").toFile();
                        AnalysisResult r = Racer.analyze(AnalysisRequest.builder().input(classes)
                                .summariesOut(summary).threads(1).build());
                        StringBuilder key = new StringBuilder();
                        for (AnalysisResult.Issue issue : r.issues()) {
                            key.append(issue.location()).append(' ').append(issue.accessPath()).append(';');
                        }
                        return key.toString();
                    }
                }));
            }
            String first = null;
            for (int i = 0; i < futures.size(); i++) {
                String key = futures.get(i).get(120, TimeUnit.SECONDS);
                assertNotNull(key);
                if (i % 5 == 4) {
                    assertEquals("error", key);
                } else if (first == null) {
                    first = key;
                } else {
                    assertEquals(first, key, "result of call " + i);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
