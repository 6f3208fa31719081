package io.mpirunj.launcher.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for the tests (no JSON library is on the classpath): objects become
 * {@link LinkedHashMap}, arrays {@link ArrayList}, numbers {@link Double}. Anything that is not
 * exactly one JSON value (trailing text, a missing comma, an unquoted key) fails.
 */
final class MiniJson {
    private final String text;
    private int pos;

    private MiniJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        MiniJson p = new MiniJson(text);
        p.space();
        Object v = p.value();
        p.space();
        if (p.pos != text.length()) {
            throw p.fail("trailing text");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        return (Map<String, Object>) parse(text);
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(String text) {
        return (List<Object>) parse(text);
    }

    private Object value() {
        if (pos >= text.length()) {
            throw fail("value expected");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{' -> {
                pos++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek('}')) {
                    pos++;
                    return map;
                }
                do {
                    space();
                    String key = string();
                    space();
                    expect(':');
                    space();
                    if (map.put(key, value()) != null) {
                        throw fail("duplicate key " + key);
                    }
                    space();
                } while (consume(','));
                expect('}');
                return map;
            }
            case '[' -> {
                pos++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek(']')) {
                    pos++;
                    return list;
                }
                do {
                    space();
                    list.add(value());
                    space();
                } while (consume(','));
                expect(']');
                return list;
            }
            case '"' -> {
                return string();
            }
            default -> {
                if (text.startsWith("true", pos)) {
                    pos += 4;
                    return Boolean.TRUE;
                }
                if (text.startsWith("false", pos)) {
                    pos += 5;
                    return Boolean.FALSE;
                }
                if (text.startsWith("null", pos)) {
                    pos += 4;
                    return null;
                }
                int start = pos;
                while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
                    pos++;
                }
                String number = text.substring(start, pos);
                if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) {
                    throw fail("bad number '" + number + "'");
                }
                return Double.parseDouble(number);
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (pos < text.length() && text.charAt(pos) != '"') {
            char c = text.charAt(pos++);
            if (c == '\\') {
                char e = text.charAt(pos++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> b.append(e);
                }
            } else if (c < 0x20) {
                throw fail("control character in string");
            } else {
                b.append(c);
            }
        }
        expect('"');
        return b.toString();
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private boolean consume(char c) {
        if (peek(c)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!consume(c)) {
            throw fail("'" + c + "' expected");
        }
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("JSON: " + what + " at offset " + pos + " in: "
                + text.substring(Math.max(0, pos - 40), Math.min(text.length(), pos + 40)));
    }
}
