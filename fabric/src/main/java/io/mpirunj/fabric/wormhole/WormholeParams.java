package io.mpirunj.fabric.wormhole;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.LinearCost;
import io.mpirunj.fabric.model.Numbers;
import io.mpirunj.fabric.model.ParameterizedModel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The timing parameters of the flit-level wormhole simulation of paper 000 (section 4.2), in
 * model time units:
 * <ul>
 *   <li>{@code ss} send setup, {@code sd} send time per flit (sender software),</li>
 *   <li>{@code cd} channel time per flit (node-to-router, router-to-router and router-to-node),</li>
 *   <li>{@code rs} receive setup, {@code rd} receive time per flit (receiver software),</li>
 *   <li>{@code flit}: bytes per flit (default 1); a message of b bytes is
 *       m = max(1, ceil(b / flit)) flits.</li>
 * </ul>
 * For an m-flit message over k channels without contention:
 * <pre>
 *   t_send = ss + m·sd        t_net = k·cd + (m-1)·cd        t_recv = rs + m·rd
 *   t_hold = t_send           t_end = t_send + t_net + t_recv = ss + rs + (k-1)·cd + m·(sd + cd + rd)
 * </pre>
 * The paper's values {@code ss=2000,sd=2,cd=2,rs=3500,rd=3} with 1-byte flits are the IBM SP's
 * {@code hold=20+0.02m,end=55+0.07m} (µs, m bytes) in units of 10 ns, up to the (k-1)·cd distance
 * term: t_hold = 2000 + 2m, t_end = 5500 + 7m + 2(k-1).
 *
 * <p>Spec: {@code ss=2000,sd=2,cd=2,rs=3500,rd=3[,flit=BYTES]}; {@code toString()} is canonical.
 */
public record WormholeParams(double ss, double sd, double cd, double rs, double rd, int flitBytes) {

    public static final String FORM = "ss=S,sd=S,cd=C,rs=R,rd=R[,flit=BYTES]";

    /** The paper's values: ss=2000, sd=2, cd=2, rs=3500, rd=3, 1-byte flits. */
    public static final WormholeParams PAPER = new WormholeParams(2000, 2, 2, 3500, 3, 1);

    private static final String NUMBER = "[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?";

    public WormholeParams {
        Numbers.requireFiniteNonNegative("ss", ss);
        Numbers.requireFiniteNonNegative("sd", sd);
        Numbers.requireFiniteNonNegative("cd", cd);
        Numbers.requireFiniteNonNegative("rs", rs);
        Numbers.requireFiniteNonNegative("rd", rd);
        if (flitBytes < 1) {
            throw new IllegalArgumentException("flit=" + flitBytes + " (expected: >= 1 byte)");
        }
    }

    /** Parses {@code ss=2000,sd=2,cd=2,rs=3500,rd=3[,flit=BYTES]} (any order; all five times required). */
    public static WormholeParams parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty wormhole params (expected: " + FORM + ")");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String raw : spec.trim().split(",", -1)) {
            String token = raw.trim();
            int eq = token.indexOf('=');
            String key = eq < 0 ? token : token.substring(0, eq).trim();
            if (eq < 0 || !key.matches("ss|sd|cd|rs|rd|flit")) {
                throw new IllegalArgumentException("wormhole params '" + spec + "': bad token '" + token
                        + "' (expected: " + FORM + ")");
            }
            if (fields.put(key, token.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException("wormhole params '" + spec + "': '" + key
                        + "' given twice (expected: " + FORM + ")");
            }
        }
        double[] v = new double[5];
        String[] keys = {"ss", "sd", "cd", "rs", "rd"};
        for (int i = 0; i < keys.length; i++) {
            String text = fields.get(keys[i]);
            if (text == null) {
                throw new IllegalArgumentException("wormhole params '" + spec + "': missing '" + keys[i]
                        + "=' (expected: " + FORM + ")");
            }
            if (!text.matches(NUMBER) || Double.isInfinite(Double.parseDouble(text))) {
                throw new IllegalArgumentException("wormhole params '" + spec + "': bad token '" + keys[i] + "="
                        + text + "' (expected: " + FORM + " with non-negative numbers)");
            }
            v[i] = Double.parseDouble(text);
        }
        int flit = 1;
        String flitText = fields.get("flit");
        if (flitText != null) {
            if (!flitText.matches("[1-9][0-9]{0,8}")) {
                throw new IllegalArgumentException("wormhole params '" + spec + "': bad token 'flit=" + flitText
                        + "' (expected: flit=BYTES, an integer >= 1)");
            }
            flit = Integer.parseInt(flitText);
        }
        return new WormholeParams(v[0], v[1], v[2], v[3], v[4], flit);
    }

    /** m: flits of a {@code bytes}-byte message, at least 1 (the header). */
    public long flits(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes=" + bytes + " (expected: >= 0)");
        }
        return Math.max(1, (bytes + flitBytes - 1) / flitBytes);
    }

    /** t_send = ss + m·sd: sender software time, also t_hold. */
    public double tSend(long bytes) {
        return ss + flits(bytes) * sd;
    }

    /** t_recv = rs + m·rd: receiver software time. */
    public double tRecv(long bytes) {
        return rs + flits(bytes) * rd;
    }

    /** t_net = k·cd + (m-1)·cd over {@code channels} = k channels, no contention. */
    public double tNet(int channels, long bytes) {
        return (channels + flits(bytes) - 1) * cd;
    }

    /** The closed form t_end = ss + rs + (k-1)·cd + m·(sd + cd + rd), no contention. */
    public double tEnd(int channels, long bytes) {
        long m = flits(bytes);
        return ss + rs + (channels - 1) * cd + m * (sd + cd + rd);
    }

    /**
     * The (t_hold, t_end) model these parameters imply for a path of {@code channels} channels,
     * as the model-driven builders (OPT-tree, OPT-mesh) see it. With 1-byte flits this is the
     * linear {@code hold=ss+sd·m,end=ss+rs+(k-1)cd+(sd+cd+rd)·m} (a {@link ParameterizedModel});
     * otherwise the exact per-flit form. {@code nominalModel(1)} is the paper's IBM SP model
     * (distance ignored).
     */
    public CostModel nominalModel(int channels) {
        if (channels < 1) {
            throw new IllegalArgumentException("channels=" + channels + " (expected: >= 1)");
        }
        if (flitBytes == 1) {
            return new ParameterizedModel(new LinearCost(ss, sd),
                    new LinearCost(ss + rs + (channels - 1) * cd, sd + cd + rd), 1);
        }
        WormholeParams self = this;
        return new CostModel() {
            @Override
            public double tHold(long bytes) {
                return self.tSend(bytes);
            }

            @Override
            public double tEnd(long bytes) {
                return self.tEnd(channels, bytes);
            }

            @Override
            public String toString() {
                return "nominal(" + self + ",k=" + channels + ")";
            }
        };
    }

    @Override
    public String toString() {
        return "ss=" + Numbers.format(ss) + ",sd=" + Numbers.format(sd) + ",cd=" + Numbers.format(cd)
                + ",rs=" + Numbers.format(rs) + ",rd=" + Numbers.format(rd)
                + (flitBytes == 1 ? "" : ",flit=" + flitBytes);
    }
}
