package dev.racer.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
                .maxMemoryMb(2048)
                .build().toJson();
        assertEquals("{\"request_version\":2,\"inputs\":[\"/x/classes\"],\"classpath\":[],\"summaries_in\":[],"
                + "\"options\":{\"thread_safe_annotations\":[],\"ignore_classes\":[\"com.example.generated.*\"],"
                + "\"library_packages\":[],\"threads\":0,\"racerd_compat\":true,\"max_memory_mb\":2048},"
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
