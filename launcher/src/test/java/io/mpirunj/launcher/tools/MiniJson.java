package io.mpirunj.launcher.tools;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools' JSON output as plain Java values for assertions, read strictly by Jackson: objects become
 * {@link LinkedHashMap}, arrays {@link ArrayList}, every number a {@link Double} (so {@code 165} and
 * {@code 165.0} compare alike). Anything that is not exactly one JSON value (trailing text, a missing
 * comma, an unquoted key, a repeated key) fails.
 */
final class MiniJson {
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private MiniJson() {
    }

    static Object parse(String text) {
        try {
            return plain(STRICT.readTree(text));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not one JSON value: " + e.getOriginalMessage() + " in: " + text, e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        return (Map<String, Object>) parse(text);
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(String text) {
        return (List<Object>) parse(text);
    }

    private static Object plain(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            throw new IllegalArgumentException("no JSON value");
        } else if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), plain(e.getValue())));
            return m;
        } else if (n.isArray()) {
            List<Object> l = new ArrayList<>();
            n.forEach(e -> l.add(plain(e)));
            return l;
        } else if (n.isNumber()) {
            return n.doubleValue();
        } else if (n.isBoolean()) {
            return n.booleanValue();
        } else if (n.isNull()) {
            return null;
        }
        return n.textValue();
    }
}
