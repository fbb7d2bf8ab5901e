// A small JSON reader for the starter bot (Java 11 or later, standard library only):
// enough for the arbiter's states. Json.parse(text) returns the value as plain Java
// objects: a Map<String, Object> for an object, a List<Object> for an array, a String,
// a Double, a Boolean or null. Json.get(value, "key", ...) walks into it and
// Json.num(value, "key", ...) reads a number as a long.

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class Json {
    private final String t;
    private int i;

    private Json(String text) {
        t = text;
    }

    /** The value of a JSON text; IllegalArgumentException when it is not JSON. */
    public static Object parse(String text) {
        Json p = new Json(text);
        Object v = p.value();
        p.space();
        if (p.i != text.length()) throw p.fail("text after the value");
        return v;
    }

    /** The value at a path of keys (objects) and indexes (arrays); null when absent. */
    public static Object get(Object value, Object... path) {
        for (Object step : path) {
            if (step instanceof String && value instanceof Map) {
                value = ((Map<?, ?>) value).get(step);
            } else if (step instanceof Integer && value instanceof List) {
                List<?> list = (List<?>) value;
                int k = (Integer) step;
                value = k < list.size() ? list.get(k) : null;
            } else {
                return null;
            }
        }
        return value;
    }

    /** The number at a path, as a long; 0 when absent. */
    public static long num(Object value, Object... path) {
        Object v = get(value, path);
        return v instanceof Double ? (long) (double) (Double) v : 0;
    }

    /** The string at a path; "" when absent. */
    public static String str(Object value, Object... path) {
        Object v = get(value, path);
        return v instanceof String ? (String) v : "";
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("bad JSON: " + what + " at " + i);
    }

    private void space() {
        while (i < t.length() && " \t\r\n".indexOf(t.charAt(i)) >= 0) i++;
    }

    private boolean eat(char c) {
        space();
        if (i < t.length() && t.charAt(i) == c) {
            i++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!eat(c)) throw fail("expected '" + c + "'");
    }

    private boolean word(String w) {
        if (!t.startsWith(w, i)) return false;
        i += w.length();
        return true;
    }

    private Object value() {
        space();
        if (i >= t.length()) throw fail("unexpected end");
        char c = t.charAt(i);
        if (c == '{') {
            i++;
            Map<String, Object> fields = new HashMap<>();
            if (eat('}')) return fields;
            do {
                space();
                String key = string();
                expect(':');
                fields.put(key, value());
            } while (eat(','));
            expect('}');
            return fields;
        }
        if (c == '[') {
            i++;
            List<Object> items = new ArrayList<>();
            if (eat(']')) return items;
            do {
                items.add(value());
            } while (eat(','));
            expect(']');
            return items;
        }
        if (c == '"') return string();
        if (word("true")) return Boolean.TRUE;
        if (word("false")) return Boolean.FALSE;
        if (word("null")) return null;
        int start = i;
        while (i < t.length() && "+-0123456789.eE".indexOf(t.charAt(i)) >= 0) i++;
        try {
            return Double.parseDouble(t.substring(start, i));
        } catch (NumberFormatException e) {
            throw fail("unexpected character");
        }
    }

    private String string() {
        if (i >= t.length() || t.charAt(i) != '"') throw fail("expected a string");
        i++;
        StringBuilder out = new StringBuilder();
        while (i < t.length() && t.charAt(i) != '"') {
            char c = t.charAt(i++);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (i >= t.length()) throw fail("unexpected end");
            char e = t.charAt(i++);
            switch (e) {
                case 'n': out.append('\n'); break;
                case 't': out.append('\t'); break;
                case 'r': out.append('\r'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'u':
                    if (i + 4 > t.length()) throw fail("bad \\u escape");
                    out.append((char) Integer.parseInt(t.substring(i, i + 4), 16));
                    i += 4;
                    break;
                default: out.append(e); // \" \\ \/
            }
        }
        if (i >= t.length()) throw fail("unterminated string");
        i++;
        return out.toString();
    }
}
