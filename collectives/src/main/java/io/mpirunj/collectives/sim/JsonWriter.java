package io.mpirunj.collectives.sim;

import io.mpirunj.fabric.model.Numbers;

/**
 * A minimal streaming JSON writer, enough for exports (no parsing, no pretty printing).
 * Numbers are written by {@link Numbers#format}: integral values without a fraction
 * ({@code 130}, not {@code 130.0}), others as plain decimals; NaN and infinities are rejected.
 * Callers are responsible for balanced begin/end calls.
 */
final class JsonWriter {

    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    JsonWriter beginObject() {
        separate();
        out.append('{');
        needComma = false;
        return this;
    }

    JsonWriter endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    JsonWriter beginArray() {
        separate();
        out.append('[');
        needComma = false;
        return this;
    }

    JsonWriter endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    /** Writes a member name; the next value call writes its value. */
    JsonWriter name(String name) {
        separate();
        string(name);
        out.append(':');
        needComma = false;
        return this;
    }

    JsonWriter value(String value) {
        separate();
        string(value);
        needComma = true;
        return this;
    }

    JsonWriter value(double value) {
        separate();
        out.append(Numbers.format(value));
        needComma = true;
        return this;
    }

    JsonWriter value(long value) {
        separate();
        out.append(value);
        needComma = true;
        return this;
    }

    JsonWriter value(boolean value) {
        separate();
        out.append(value);
        needComma = true;
        return this;
    }

    private void separate() {
        if (needComma) {
            out.append(',');
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
