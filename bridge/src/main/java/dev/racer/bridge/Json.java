package dev.racer.bridge;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.Strictness;
import com.google.gson.ToNumberPolicy;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * JSON for the bridge's request and response, through Gson (relocated into the bridge jar, see
 * pom.xml). Parsed values are {@code Map<String,Object>} (insertion-ordered), {@code List<Object>},
 * {@code String}, {@code Long} or {@code Double}, {@code Boolean} and {@code null}.
 */
final class Json {
    // serializeNulls: a null in a request map is written, not dropped; no HTML escaping: paths
    // and class names stay readable; LONG_OR_DOUBLE: integers stay integers.
    private static final Gson GSON = new GsonBuilder()
            .serializeNulls()
            .disableHtmlEscaping()
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .create();
    private static final TypeAdapter<Object> VALUES = GSON.getAdapter(Object.class);

    private Json() {
    }

    /** Serialises maps, collections, strings, numbers, booleans and null. */
    static String write(Object value) {
        return GSON.toJson(value);
    }

    /** Parses one JSON document (RFC 8259, strictly); throws {@link RacerException} on malformed input. */
    static Object parse(String text) {
        JsonReader reader = new JsonReader(new StringReader(text));
        reader.setStrictness(Strictness.STRICT);
        try {
            Object value = VALUES.read(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw malformed("unexpected trailing characters at " + reader.getPath());
            }
            return value;
        } catch (IOException | JsonParseException | IllegalStateException e) {
            throw malformed(e.getMessage());
        }
    }

    private static RacerException malformed(String what) {
        // Gson appends a troubleshooting link on a second line; the message stays one line.
        String line = what == null ? "unreadable" : what.split("\\R", 2)[0];
        return new RacerException("racer: malformed JSON from the engine: " + line);
    }

    // ---- typed access to parsed values ----

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value, String what) {
        if (value == null) {
            return Collections.emptyMap();
        }
        if (!(value instanceof Map)) {
            throw new RacerException("racer: unexpected engine response: " + what + " is not an object");
        }
        return (Map<String, Object>) value;
    }

    static List<Object> array(Object value, String what) {
        if (value == null) {
            return Collections.emptyList();
        }
        if (!(value instanceof List)) {
            throw new RacerException("racer: unexpected engine response: " + what + " is not an array");
        }
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) value;
        return list;
    }

    static String string(Map<String, Object> object, String key) {
        Object v = object.get(key);
        return v == null ? "" : String.valueOf(v);
    }

    static long number(Map<String, Object> object, String key) {
        Object v = object.get(key);
        return v instanceof Number ? ((Number) v).longValue() : 0L;
    }

    static boolean bool(Map<String, Object> object, String key) {
        return Boolean.TRUE.equals(object.get(key));
    }
}
