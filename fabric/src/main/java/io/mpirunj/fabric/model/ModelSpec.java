package io.mpirunj.fabric.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the one-line cost model specs used on the command line and in reports:
 *
 * <pre>
 *   hold=20,end=55                    size-independent t_hold / t_end
 *   hold=20+0.02m,end=55+0.07m        linear in the message size m (bytes)
 *   logp:L=6,o=2,g=4                  LogP: t_hold = g, t_end = L + 2o
 *   ...,ports=2                       optional on either form: sends in flight per node
 *   hold=..,end=..,cpus=2             optional: the CPUs all nodes share (ranks outnumbering cores)
 *   hold=..,end=..,cpus=2,wake=60     with cpus: a receiver's latency to be scheduled onto one of them
 *   hold=..,end=..,rndv=2097152       optional: messages above this many bytes go by rendezvous (RTS/CTS first)
 *   pairs:PATH                        a per-pair matrix file ({@link PairMatrixFile})
 *   PATH.json                         a model file as calibrate --out writes ({@link ModelFile})
 * </pre>
 *
 * Numbers are non-negative decimals (an exponent is allowed). t_end, the time from the start of a
 * send to the end of its receive, is never 0: {@code end}'s constant term, and LogP's {@code L + 2o}, must
 * be above 0. t_hold may exceed t_end (SPEC 1: OPT-tree then takes the full DP; LogP's g > L + 2o is such
 * a model). Whitespace around tokens is ignored. The {@code toString()} of a parsed model is the canonical spec and parses back to an
 * equal model. Any other text is rejected with an {@link IllegalArgumentException} naming the bad
 * token and the expected form.
 */
public final class ModelSpec {

    public static final String PARAMETERIZED_FORM = "hold=A[+Bm],end=C[+Dm][,ports=P][,cpus=C[,wake=W[+Xm]]][,rndv=R]";
    public static final String LOGP_FORM = "logp:L=..,o=..,g=..[,ports=P]";

    private static final String NUMBER = "[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?";
    private static final Pattern LINEAR = Pattern.compile(
            "(" + NUMBER + ")(?:\\+(" + NUMBER + ")m)?|(" + NUMBER + ")m");
    private static final Pattern NUMBER_ONLY = Pattern.compile(NUMBER);
    private static final Pattern POSITIVE = Pattern.compile("[1-9][0-9]{0,8}");
    private static final Pattern BYTES = Pattern.compile("[0-9]{1,18}");
    private static final String LOGP_PREFIX = "logp:";
    private static final String PAIRS_PREFIX = "pairs:";

    private ModelSpec() {
    }

    /** Parses a spec; see the class comment for the forms. */
    public static CostModel parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty model spec (expected: " + PARAMETERIZED_FORM
                    + ", " + LOGP_FORM + " or pairs:FILE)");
        }
        String text = spec.trim();
        if (text.startsWith(PAIRS_PREFIX)) {
            return PairMatrixFile.read(java.nio.file.Path.of(text.substring(PAIRS_PREFIX.length())));
        }
        if (ModelFile.isModelFile(text)) {
            return ModelFile.read(java.nio.file.Path.of(text));
        }
        if (text.regionMatches(true, 0, LOGP_PREFIX, 0, LOGP_PREFIX.length())) {
            return parseLogP(spec, text.substring(LOGP_PREFIX.length()));
        }
        return parseParameterized(spec, text);
    }

    private static CostModel parseParameterized(String spec, String body) {
        Map<String, String> fields = fields(spec, body, PARAMETERIZED_FORM, "hold", "end", "ports", "cpus", "wake", "rndv");
        LinearCost hold = linear(spec, "hold", require(spec, fields, "hold", PARAMETERIZED_FORM));
        LinearCost end = linear(spec, "end", require(spec, fields, "end", PARAMETERIZED_FORM));
        if (!(end.constant() > 0)) {
            throw new IllegalArgumentException("model spec '" + spec + "': end=" + fields.get("end")
                    + " gives an empty message t_end 0 (expected: end=C[+Dm] with C > 0: t_end, from the start of a"
                    + " send to the end of its receive, is never 0)");
        }
        int cpus = cpus(spec, fields);
        LinearCost wake = fields.containsKey("wake") ? linear(spec, "wake", fields.get("wake")) : LinearCost.of(0);
        if (cpus == 0 && fields.containsKey("wake")) {
            throw new IllegalArgumentException("model spec '" + spec + "': wake= needs cpus=C (the latency of a"
                    + " rank scheduled onto one of C shared CPUs; expected: " + PARAMETERIZED_FORM + ")");
        }
        return new ParameterizedModel(hold, end, ports(spec, fields, PARAMETERIZED_FORM), cpus, wake,
                rendezvousAbove(spec, fields));
    }

    private static CostModel parseLogP(String spec, String body) {
        Map<String, String> fields = fields(spec, body, LOGP_FORM, "L", "o", "g", "ports");
        double latency = number(spec, "L", require(spec, fields, "L", LOGP_FORM), LOGP_FORM);
        double overhead = number(spec, "o", require(spec, fields, "o", LOGP_FORM), LOGP_FORM);
        double gap = number(spec, "g", require(spec, fields, "g", LOGP_FORM), LOGP_FORM);
        if (!(latency + 2 * overhead > 0)) {
            throw new IllegalArgumentException("model spec '" + spec + "': L=" + fields.get("L") + ", o="
                    + fields.get("o") + " give t_end = L + 2o = 0 (expected: L + 2o > 0: t_end, from the start of a"
                    + " send to the end of its receive, is never 0)");
        }
        return new LogPModel(latency, overhead, gap, ports(spec, fields, LOGP_FORM));
    }

    /** Splits {@code key=value} tokens, rejecting unknown and repeated keys. Keys are case-sensitive. */
    private static Map<String, String> fields(String spec, String body, String form, String... keys) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String raw : body.split(",", -1)) {
            String token = raw.trim();
            int eq = token.indexOf('=');
            String key = eq < 0 ? token : token.substring(0, eq).trim();
            if (eq < 0 || !isOneOf(key, keys)) {
                throw bad(spec, token, form);
            }
            if (fields.put(key, token.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException("model spec '" + spec + "': '" + key
                        + "' given twice (expected: " + form + ")");
            }
        }
        return fields;
    }

    private static boolean isOneOf(String key, String... keys) {
        for (String k : keys) {
            if (k.equals(key)) {
                return true;
            }
        }
        return false;
    }

    private static String require(String spec, Map<String, String> fields, String key, String form) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("model spec '" + spec + "': missing '" + key
                    + "=' (expected: " + form + ")");
        }
        return value;
    }

    private static LinearCost linear(String spec, String key, String value) {
        Matcher m = LINEAR.matcher(value);
        if (!m.matches()) {
            throw bad(spec, key + "=" + value, PARAMETERIZED_FORM);
        }
        double constant = m.group(3) != null ? 0 : Double.parseDouble(m.group(1));
        String slopeText = m.group(3) != null ? m.group(3) : m.group(2);
        double slope = slopeText == null ? 0 : Double.parseDouble(slopeText);
        if (Double.isInfinite(constant) || Double.isInfinite(slope)) {
            throw bad(spec, key + "=" + value, PARAMETERIZED_FORM);
        }
        return new LinearCost(constant, slope);
    }

    private static double number(String spec, String key, String value, String form) {
        if (!NUMBER_ONLY.matcher(value).matches()) {
            throw bad(spec, key + "=" + value, form);
        }
        double parsed = Double.parseDouble(value);
        if (Double.isInfinite(parsed)) {
            throw bad(spec, key + "=" + value, form);
        }
        return parsed;
    }

    private static int ports(String spec, Map<String, String> fields, String form) {
        return positive(spec, fields, "ports", 1, form.replace("P]", "P >= 1]"));
    }

    private static int cpus(String spec, Map<String, String> fields) {
        return positive(spec, fields, "cpus", 0, PARAMETERIZED_FORM.replace("cpus=C[", "cpus=C >= 1["));
    }

    /** The bytes under {@code rndv}, a whole number >= 0, or {@link Long#MAX_VALUE} (every message eager) when absent. */
    private static long rendezvousAbove(String spec, Map<String, String> fields) {
        String value = fields.get("rndv");
        if (value == null) {
            return Long.MAX_VALUE;
        }
        if (!BYTES.matcher(value).matches()) {
            throw bad(spec, "rndv=" + value, PARAMETERIZED_FORM.replace("rndv=R]", "rndv=R bytes >= 0]"));
        }
        return Long.parseLong(value);
    }

    /** The positive whole number under {@code key}, or {@code absent} when the spec has none. */
    private static int positive(String spec, Map<String, String> fields, String key, int absent, String form) {
        String value = fields.get(key);
        if (value == null) {
            return absent;
        }
        if (!POSITIVE.matcher(value).matches()) {
            throw bad(spec, key + "=" + value, form);
        }
        return Integer.parseInt(value);
    }

    private static IllegalArgumentException bad(String spec, String token, String form) {
        return new IllegalArgumentException("model spec '" + spec + "': bad token '" + token
                + "' (expected: " + form + ")");
    }
}
