package io.mpirunj.io;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.stream.Collectors;

/**
 * Jackson's complaint about a file in the file's own terms, on one line: a field by its path in the file
 * ({@code hold.b}, {@code rules[0].maxBytes}), not by the class it would fill; no parser settings or source
 * descriptions. Every JSON file the tools read (model files, rules files, schedules) says it this way.
 */
public final class JsonErrors {
    private JsonErrors() {
    }

    /** What is wrong, e.g. {@code "hold.b" is missing (expected: a number)}. */
    public static String reason(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException u && u.getKnownPropertyIds() != null) {
            return "unknown field \"" + u.getPropertyName() + "\"" + within(u) + " (expected one of: "
                    + u.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                            .collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof MismatchedInputException m && !path(m).isEmpty()) {
            String expected = expected(m.getTargetType());
            if (e instanceof InvalidNullException || message(e).startsWith("Cannot map `null`")) { // a primitive's
                return "\"" + path(m) + "\" is missing (expected: " + expected + ")";
            }
            return "\"" + path(m) + "\" must be " + expected + " (" + firstLine(e.getOriginalMessage())
                    .replaceFirst(" to `.*$", "") + ")";
        }
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : "at line " + at.getLineNr() + ", column "
                + at.getColumnNr() + ": ";
        // a mapping error with no field (a truncated file, an array for an object): where, and Jackson's words
        return e instanceof JsonMappingException ? where + message(e) : "malformed JSON " + where + message(e);
    }

    /** Jackson's own message, its first line, without the description of its source. */
    public static String message(JsonProcessingException e) {
        return firstLine(e.getOriginalMessage());
    }

    /** The field's path in the file: names joined with dots, array indexes in brackets. */
    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append(sb.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /** Where an unknown field sits, when not at the top. */
    private static String within(UnrecognizedPropertyException u) {
        String p = path(u);
        String inside = p.endsWith(u.getPropertyName()) ? p.substring(0, p.length() - u.getPropertyName().length()) : p;
        inside = inside.endsWith(".") ? inside.substring(0, inside.length() - 1) : inside;
        return inside.isEmpty() ? "" : " in \"" + inside + "\"";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "a value";
        }
        if (type == Long.class || type == Integer.class || type == long.class || type == int.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
            return "a number";
        }
        return type == String.class ? "a string" : "a " + type.getSimpleName();
    }

    /** {@code s}'s first line, without Jackson's description of its source ({@code [Source: ...]}). */
    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        String line = s.lines().findFirst().orElse("");
        return line.replaceAll("\\s*\\(start marker at \\[Source: [^]]*\\]\\)", "")
                .replaceAll("\\s*at \\[Source: [^]]*\\]", "").strip();
    }
}
