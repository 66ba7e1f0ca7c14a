package dev.racer.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void roundTripsNestedValues() {
        Map<String, Object> m = new LinkedHashMap<String, Object>();
        m.put("s", "a \"quoted\" \\ path\n\t\u0001 ünïcode");
        m.put("n", 42L);
        m.put("d", 1.5);
        m.put("b", true);
        m.put("z", null);
        m.put("l", Arrays.<Object>asList(1L, "x", Arrays.asList()));
        String text = Json.write(m);
        assertEquals(m, Json.parse(text));
        assertEquals(text, Json.write(Json.parse(text)));
    }

    @Test
    void parsesEscapesAndWhitespace() {
        Object v = Json.parse(" { \"a\" : [ \"\\u0041\\/\" , -1.25e2 , false ] } ");
        @SuppressWarnings("unchecked")
        List<Object> a = (List<Object>) ((Map<String, Object>) v).get("a");
        assertEquals(Arrays.<Object>asList("A/", -125.0, false), a);
    }

    @Test
    void rejectsMalformedDocuments() {
        for (String bad : new String[] {"", "{", "[1,]", "{\"a\" 1}", "\"unterminated", "tru", "{} x", "[01x]"}) {
            assertThrows(RacerException.class, () -> Json.parse(bad), bad);
        }
    }

    @Test
    void rejectsWhatStrictJsonForbids() {
        for (String bad : new String[] {"{a:1}", "['x']", "[1e999]", "[NaN]", "{\"a\":1,}", "[1] [2]", "// c\n1"}) {
            assertThrows(RacerException.class, () -> Json.parse(bad), bad);
        }
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            deep.append('[');
        }
        RacerException e = assertThrows(RacerException.class, () -> Json.parse(deep.toString()));
        assertEquals(-1, e.getMessage().indexOf('\n'), e.getMessage());
    }

    /** Mutated responses: each either parses or fails with a one-line RacerException, nothing else. */
    @Test
    void mutatedDocumentsFailCleanly() {
        String response = "{\"tool\":{\"name\":\"racer\",\"version\":\"0.1.0\"},\"issues\":[{\"kind\":"
                + "\"RACE\",\"class\":\"a.B\",\"line\":12,\"conflicts\":[{\"locked\":false,\"trace\":[]}],"
                + "\"message\":\"\\u00e9 \\\"x\\\" \\n\"}],\"stats\":{\"classes\":3,\"millis\":1.5e3},"
                + "\"diagnostics\":[],\"console\":null}";
        Json.parse(response);
        String alphabet = "{}[]:,\"\\ -+.eE0123456789tfnu/\u0000\u00e9";
        Random random = new Random(42);
        for (int run = 0; run < 20_000; run++) {
            StringBuilder doc = new StringBuilder(response);
            for (int edits = 1 + random.nextInt(4); edits > 0 && doc.length() > 0; edits--) {
                int at = random.nextInt(doc.length());
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0:
                        doc.setCharAt(at, c);
                        break;
                    case 1:
                        doc.insert(at, c);
                        break;
                    default:
                        doc.deleteCharAt(at);
                }
            }
            String text = doc.toString();
            try {
                AnalysisResult.parse(text);
            } catch (RacerException e) {
                assertEquals(-1, e.getMessage().indexOf('\n'), e.getMessage());
            }
        }
    }

    @Test
    void requestJsonHasTheContractFields() {
        String json = AnalysisRequest.builder()
                .input(new java.io.File("/x/classes"))
                .threadSafeAnnotations(Arrays.asList("com.example.Concurrent"))
                .report(ReportFormat.SARIF, new java.io.File("/x/r.sarif"))
                .build().toJson();
        assertEquals("{\"request_version\":2,\"inputs\":[\"/x/classes\"],\"classpath\":[],\"summaries_in\":[],"
                + "\"options\":{\"thread_safe_annotations\":[\"com.example.Concurrent\"],\"ignore_classes\":[],"
                + "\"library_packages\":[],\"threads\":0},\"reports\":{\"sarif\":\"/x/r.sarif\"},\"source_paths\":[]}",
                json);
    }

    @Test
    void requestJsonCarriesBaselineFilterAndNewOptions() {
        String json = AnalysisRequest.builder()
                .input(new java.io.File("/x/classes"))
                .ignoreClasses(Arrays.asList("com.example.generated.*"))
                .baseline(new java.io.File("/x/racer-baseline.json"))
                .writeBaseline(new java.io.File("/x/new-baseline.json"))
                .filter(new java.io.File("/x/filter.json"))
                .consoleLimit(5)
                .racerdCompat(true)
                .differentLocks(true)
                .highConfidence(true)
                .maxMemoryMb(2048)
                .withoutExtensions(Arrays.asList("thread-handoffs"))
                .build().toJson();
        assertEquals("{\"request_version\":2,\"inputs\":[\"/x/classes\"],\"classpath\":[],\"summaries_in\":[],"
                + "\"options\":{\"thread_safe_annotations\":[],\"ignore_classes\":[\"com.example.generated.*\"],"
                + "\"library_packages\":[],\"threads\":0,\"racerd_compat\":true,\"different_locks\":true,\"high_confidence\":true,"
                + "\"max_memory_mb\":2048,\"without_extensions\":[\"thread-handoffs\"]},"
                + "\"reports\":{},\"source_paths\":[],\"baseline\":\"/x/racer-baseline.json\","
                + "\"write_baseline\":\"/x/new-baseline.json\",\"filter\":\"/x/filter.json\",\"console_limit\":5}",
                json);
    }

    @Test
    void negativeLimitsAreRejected() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AnalysisRequest.builder().consoleLimit(-1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AnalysisRequest.builder().maxMemoryMb(-1));
    }
}
