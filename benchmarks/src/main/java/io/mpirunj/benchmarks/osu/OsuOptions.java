package io.mpirunj.benchmarks.osu;

import io.mpirunj.benchmarks.OsuFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * The command-line options of an OSU-style benchmark, parsed as OSU's {@code process_options} does:
 * {@code -m [MIN:]MAX} (also {@code MIN:}), {@code -i ITER}, {@code -x WARMUP}, {@code -f}, plus
 * {@code -W WINDOW} (osu_bw), {@code -g K} (osu_multicast: the group size) and
 * {@code --jit-warmup N} (ours: untimed calls before the first size, 0 for none).
 *
 * <p>Immutable. Every rank parses the same arguments, so every rank reaches the same verdict.
 */
public final class OsuOptions {
    /** OSU's per-process memory limit (MAX_MEM_LIMIT), used to cap all-to-all sizes. */
    public static final long MAX_MEM_LIMIT_BYTES = 512L * 1024 * 1024;
    /** OSU's default bandwidth window (WINDOW_SIZE_LARGE). */
    public static final int DEFAULT_WINDOW = 64;

    private final OsuBenchmark benchmark;
    private final int minBytes;
    private final int maxBytes;
    private final Integer iterations;
    private final Integer warmup;
    private final boolean full;
    private final int jitWarmup;
    private final int window;
    private final Integer groupSize;
    private final boolean help;

    private OsuOptions(OsuBenchmark benchmark, int minBytes, int maxBytes, Integer iterations, Integer warmup,
            boolean full, int jitWarmup, int window, Integer groupSize, boolean help) {
        this.benchmark = benchmark;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
        this.iterations = iterations;
        this.warmup = warmup;
        this.full = full;
        this.jitWarmup = jitWarmup;
        this.window = window;
        this.groupSize = groupSize;
        this.help = help;
    }

    /** Thrown for bad options; the message is one line naming the option, the value and what is expected. */
    public static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    /** The defaults of {@code benchmark}. */
    public static OsuOptions defaults(OsuBenchmark benchmark) {
        return parse(benchmark, new String[0]);
    }

    /**
     * Parses {@code args}.
     *
     * @throws UsageException for an unknown option, a missing or malformed value, or MIN &gt; MAX
     */
    public static OsuOptions parse(OsuBenchmark b, String... args) {
        int min = b.defaultMinBytes();
        int max = b.defaultMaxBytes();
        Integer iterations = null;
        Integer warmup = null;
        boolean full = false;
        int jit = b.defaultJitWarmup();
        int window = DEFAULT_WINDOW;
        Integer group = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String name = a;
            String inline = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                inline = a.substring(eq + 1);
            } else if (a.length() > 2 && a.charAt(0) == '-' && a.charAt(1) != '-' && "mixWg".indexOf(a.charAt(1)) >= 0) {
                name = a.substring(0, 2); // -m1:64, as getopt allows
                inline = a.substring(2);
            }
            switch (name) {
                case "-h", "--help" -> help = true;
                case "-f", "--full" -> full = true;
                case "-m", "--message-size" -> {
                    if (!b.hasSizes()) {
                        throw usage(b, a + ": " + b.command() + " has no message sizes");
                    }
                    String v = inline != null ? inline : value(b, args, ++i, name);
                    int[] mm = messageSizes(b, name, v, min, max);
                    min = mm[0];
                    max = mm[1];
                }
                case "-i", "--iterations" -> iterations = positive(b, name,
                        inline != null ? inline : value(b, args, ++i, name), 1);
                case "-x", "--warmup" -> warmup = positive(b, name, inline != null ? inline : value(b, args, ++i, name), 0);
                case "--jit-warmup" -> jit = positive(b, name, inline != null ? inline : value(b, args, ++i, name), 0);
                case "-W", "--window-size" -> {
                    if (b != OsuBenchmark.BW) {
                        throw usage(b, name + " is only for osu_bw");
                    }
                    window = positive(b, name, inline != null ? inline : value(b, args, ++i, name), 1);
                }
                case "-g", "--group-size" -> {
                    if (b != OsuBenchmark.MULTICAST) {
                        throw usage(b, name + " is only for osu_multicast");
                    }
                    group = positive(b, name, inline != null ? inline : value(b, args, ++i, name), 1);
                }
                default -> throw usage(b, "unknown option '" + a + "' (expected: " + expected(b) + ")");
            }
        }
        return new OsuOptions(b, min, max, iterations, warmup, full, jit, window, group, help);
    }

    private static String expected(OsuBenchmark b) {
        List<String> e = new ArrayList<>();
        if (b.hasSizes()) {
            e.add("-m [MIN:]MAX");
        }
        e.add("-i ITER");
        e.add("-x WARMUP");
        e.add("-f");
        if (b == OsuBenchmark.BW) {
            e.add("-W WINDOW");
        }
        if (b == OsuBenchmark.MULTICAST) {
            e.add("-g GROUPSIZE");
        }
        e.add("--jit-warmup N");
        e.add("-h");
        return String.join(", ", e);
    }

    private static String value(OsuBenchmark b, String[] args, int i, String name) {
        if (i >= args.length) {
            throw usage(b, name + " needs a value");
        }
        return args[i];
    }

    private static int positive(OsuBenchmark b, String name, String v, int least) {
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw usage(b, name + " " + v + " (expected: a whole number >= " + least + ")");
        }
        if (n < least || n > Integer.MAX_VALUE) {
            throw usage(b, name + " " + v + " (expected: a whole number >= " + least + ")");
        }
        return (int) n;
    }

    /** {@code MAX}, {@code MIN:MAX}, {@code MIN:} or {@code :MAX}, as OSU's set_message_size. */
    private static int[] messageSizes(OsuBenchmark b, String name, String v, int min, int max) {
        String s = v.trim();
        int colon = s.indexOf(':');
        if (colon != s.lastIndexOf(':') || s.isEmpty() || s.equals(":")) {
            throw usage(b, name + " " + v + " (expected: [MIN:]MAX in bytes, e.g. 1:4096, 4096 or 64:)");
        }
        if (colon < 0) {
            max = bytes(b, name, v, s);
        } else {
            if (colon > 0) {
                min = bytes(b, name, v, s.substring(0, colon));
            }
            if (colon < s.length() - 1) {
                max = bytes(b, name, v, s.substring(colon + 1));
            }
        }
        int least = b == OsuBenchmark.LATENCY ? 0 : 1;
        if (min < least) {
            throw usage(b, name + " " + v + " (expected: MIN >= " + least + ")");
        }
        if (min > max) {
            throw usage(b, name + " " + v + " (expected: MIN <= MAX)");
        }
        return new int[] {min, max};
    }

    private static int bytes(OsuBenchmark b, String name, String v, String part) {
        try {
            long n = Long.parseLong(part.trim());
            if (n >= 0 && n <= (1 << 30)) {
                return (int) n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw usage(b, name + " " + v + " (expected: [MIN:]MAX with sizes in bytes from 0 to 1073741824)");
    }

    private static UsageException usage(OsuBenchmark b, String message) {
        return new UsageException(b.command() + ": " + message);
    }

    /** OSU-style help text. */
    public static String help(OsuBenchmark b) {
        String nl = System.lineSeparator();
        StringBuilder sb = new StringBuilder();
        sb.append("Usage: mpirun-j bench ").append(b.command()).append(" -np N [options]").append(nl);
        sb.append("   or: mpirun-j -np N [--threads] -cp CP ").append(b.mainClass()).append(" [options]").append(nl);
        sb.append("Options:").append(nl);
        if (b.hasSizes()) {
            sb.append("  -m, --message-size [MIN:]MAX  message sizes MIN..MAX bytes, powers of two (default ")
                    .append(b.defaultMinBytes()).append(':').append(b.defaultMaxBytes()).append(')').append(nl);
        }
        sb.append("  -i, --iterations ITER         timed iterations per size (default ").append(b.iterationsSmall());
        if (b.hasSizes()) {
            sb.append(" for small messages, ").append(b.iterationsLarge()).append(" above ")
                    .append(OsuBenchmark.LARGE_MESSAGE_BYTES).append(" B");
        }
        sb.append(')').append(nl);
        sb.append("  -x, --warmup ITER             untimed iterations before each size (default ").append(b.skipSmall());
        if (b.hasSizes()) {
            sb.append(", ").append(b.skipLarge()).append(" for large messages");
        }
        sb.append(')').append(nl);
        sb.append("  -f, --full                    also print Min, Max, Iterations, P50, P99")
                .append(b.kind() == OsuBenchmark.Kind.COLLECTIVE || b.kind() == OsuBenchmark.Kind.NO_SIZE
                        ? " and Last-Rank Done" : "")
                .append(b == OsuBenchmark.BW ? " (no effect for osu_bw)" : "").append(nl);
        if (b == OsuBenchmark.BW) {
            sb.append("  -W, --window-size SIZE        messages sent before an acknowledgement (default ")
                    .append(DEFAULT_WINDOW).append(')').append(nl);
        }
        if (b == OsuBenchmark.MULTICAST) {
            sb.append("  -g, --group-size K            multicast from rank 0 to K ranks spread over 1..np-1 "
                    + "(default np-1)").append(nl);
        }
        sb.append("      --jit-warmup N            untimed calls spread over all sizes before the first one, so the")
                .append(nl).append("                                JIT has compiled every path (default ")
                .append(b.defaultJitWarmup()).append("; 0 for none)").append(nl);
        sb.append("  -h, --help                    print this help").append(nl);
        return sb.toString();
    }

    /** These options with the largest size lowered to {@code max} (if it is lower). */
    public OsuOptions withMaxBytes(int max) {
        int m = Math.min(maxBytes, max);
        return new OsuOptions(benchmark, Math.min(minBytes, m), m, iterations, warmup, full, jitWarmup, window,
                groupSize, help);
    }

    public OsuBenchmark benchmark() {
        return benchmark;
    }

    public int minBytes() {
        return minBytes;
    }

    public int maxBytes() {
        return maxBytes;
    }

    /** The message sizes: MIN, then powers of two up to MAX (OSU doubles from MIN; MIN 0 is followed by 1). */
    public List<Integer> sizes() {
        List<Integer> out = new ArrayList<>();
        if (!benchmark.hasSizes()) {
            out.add(0);
            return out;
        }
        for (int s : OsuFormat.sizes(minBytes, maxBytes)) {
            if (s == 0 || s >= benchmark.elementBytes()) {
                out.add(s);
            }
        }
        return out;
    }

    /** Timed iterations at {@code size}: {@code -i}, else OSU's default for small or large messages. */
    public int iterations(int size) {
        if (iterations != null) {
            return iterations;
        }
        return size > OsuBenchmark.LARGE_MESSAGE_BYTES ? benchmark.iterationsLarge() : benchmark.iterationsSmall();
    }

    /** Untimed iterations before each size: {@code -x}, else OSU's default. */
    public int warmup(int size) {
        if (warmup != null) {
            return warmup;
        }
        return size > OsuBenchmark.LARGE_MESSAGE_BYTES ? benchmark.skipLarge() : benchmark.skipSmall();
    }

    public boolean full() {
        return full;
    }

    public int jitWarmup() {
        return jitWarmup;
    }

    /**
     * The JIT warm-up calls at each size: {@link #jitWarmup()} spread over the sizes, a large size
     * getting a tenth of a small size's share (so the warm-up costs about as much at each end).
     */
    public int jitWarmupCalls(int size) {
        if (jitWarmup == 0) {
            return 0;
        }
        double weights = 0;
        for (int s : sizes()) {
            weights += s > OsuBenchmark.LARGE_MESSAGE_BYTES ? 0.1 : 1;
        }
        double w = size > OsuBenchmark.LARGE_MESSAGE_BYTES ? 0.1 : 1;
        return (int) Math.ceil(jitWarmup * w / weights);
    }

    public int window() {
        return window;
    }

    /** {@code -g}, or null for the default (every rank but the root). */
    public Integer groupSize() {
        return groupSize;
    }

    public boolean help() {
        return help;
    }

    /** A short description of the warm-up, for the conditions line. */
    public String describeWarmup() {
        String perSize = benchmark.hasSizes() && warmup == null
                ? benchmark.skipSmall() + "/" + benchmark.skipLarge() + " (small/large)"
                : String.valueOf(warmup(0));
        return "-x " + perSize + " per size + " + jitWarmup + " JIT warm-up calls";
    }
}
