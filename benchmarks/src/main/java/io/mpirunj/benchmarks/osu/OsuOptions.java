package io.mpirunj.benchmarks.osu;

import io.mpirunj.benchmarks.OsuFormat;
import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command-line options of an OSU-style benchmark (parsed by picocli), as OSU's {@code process_options} takes them:
 * {@code -m [MIN:]MAX} (also {@code MIN:}), {@code -i ITER}, {@code -x WARMUP}, {@code -f}, plus
 * {@code -W WINDOW} (osu_bw), {@code -g K} (osu_multicast: the group size) and
 * {@code --jit-warmup N} (ours: untimed calls before the first size, 0 for none), and for the collectives
 * {@code --compare A,B,...} with {@code --block N} (ours: time several algorithms in this one job, interleaved;
 * see {@link Comparison}).
 *
 * <p>Immutable. Every rank parses the same arguments, so every rank reaches the same verdict.
 */
public final class OsuOptions {
    /** OSU's per-process memory limit (MAX_MEM_LIMIT), used to cap all-to-all sizes. */
    public static final long MAX_MEM_LIMIT_BYTES = 512L * 1024 * 1024;
    /** OSU's default bandwidth window (WINDOW_SIZE_LARGE). */
    public static final int DEFAULT_WINDOW = 64;
    /** With {@code --compare} and no {@code --block}: about this many rounds per size. */
    public static final int DEFAULT_ROUNDS = 100;

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
    private final List<String> compare;
    private final Integer block;
    private final boolean directBuffers;

    private OsuOptions(OsuBenchmark benchmark, int minBytes, int maxBytes, Integer iterations, Integer warmup,
            boolean full, int jitWarmup, int window, Integer groupSize, boolean help, List<String> compare,
            Integer block, boolean directBuffers) {
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
        this.compare = compare;
        this.block = block;
        this.directBuffers = directBuffers;
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
        ParseResult parsed;
        try {
            parsed = commandLine(b).parseArgs(args);
        } catch (UnmatchedArgumentException e) {
            throw usage(b, "unknown option '" + e.getUnmatched().get(0) + "' (expected: " + expected(b) + ")");
        } catch (MissingParameterException e) {
            String name = e.getMissing().get(0) instanceof OptionSpec o ? typed(o, args) : "an option";
            throw usage(b, name + " needs a value");
        } catch (ParameterException e) {
            throw usage(b, e.getMessage().replace('\n', ' ').strip());
        }
        int min = b.defaultMinBytes();
        int max = b.defaultMaxBytes();
        OptionSpec sizes = parsed.matchedOption("-m");
        if (sizes != null) {
            String name = typed(sizes, args);
            if (!b.hasSizes()) {
                throw usage(b, name + ": " + b.command() + " has no message sizes");
            }
            for (String v : parsed.matchedOptionValue("-m", List.<String>of())) { // in order, as OSU applies them
                int[] mm = messageSizes(b, name, v, min, max);
                min = mm[0];
                max = mm[1];
            }
        }
        if (parsed.hasMatchedOption("-W") && b != OsuBenchmark.BW) {
            throw usage(b, typed(parsed.matchedOption("-W"), args) + " is only for osu_bw");
        }
        if (parsed.hasMatchedOption("-g") && b != OsuBenchmark.MULTICAST) {
            throw usage(b, typed(parsed.matchedOption("-g"), args) + " is only for osu_multicast");
        }
        boolean direct = false;
        if (parsed.hasMatchedOption("--buffer")) {
            String name = typed(parsed.matchedOption("--buffer"), args);
            if (!b.choosesMemory()) {
                throw usage(b, name + " is only for " + OsuBenchmark.choosingMemory());
            }
            String v = parsed.matchedOption("--buffer").getValue();
            if (!v.equals("array") && !v.equals("direct")) {
                throw usage(b, name + " " + v + " (expected: array or direct)");
            }
            direct = v.equals("direct");
        }
        Integer iterations = number(b, parsed, "-i", args, 1);
        Integer warmup = number(b, parsed, "-x", args, 0);
        Integer jit = number(b, parsed, "--jit-warmup", args, 0);
        Integer window = number(b, parsed, "-W", args, 1);
        Integer group = number(b, parsed, "-g", args, 1);
        List<String> compare = null;
        if (parsed.hasMatchedOption("--compare")) {
            String name = typed(parsed.matchedOption("--compare"), args);
            if (b.op() == null) {
                throw usage(b, name + ": " + b.command() + " has no algorithms to compare");
            }
            String v = parsed.matchedOption("--compare").getValue();
            compare = List.of(v.split(",", -1)).stream().map(String::trim).toList();
            if (compare.size() < 2 || compare.stream().anyMatch(String::isEmpty)) {
                throw usage(b, name + " " + v + " (expected: two or more algorithm names, comma-separated, e.g. "
                        + "auto,binomial-p2p,chain)");
            }
        }
        Integer block = number(b, parsed, "--block", args, 1);
        if (block != null && compare == null) {
            throw usage(b, typed(parsed.matchedOption("--block"), args) + " needs --compare");
        }
        return new OsuOptions(b, min, max, iterations, warmup, parsed.hasMatchedOption("-f"),
                jit != null ? jit : b.defaultJitWarmup(), window != null ? window : DEFAULT_WINDOW, group,
                parsed.isUsageHelpRequested(), compare, block, direct);
    }

    /**
     * The options as picocli parses them: names, {@code --name=value}, values attached to short names
     * ({@code -m1:64}, as getopt allows) and help. Values stay text: {@link #parse} checks them, so each
     * error names the option as it was typed. Every benchmark knows every option (so {@code -W} for
     * osu_bcast gets "only for osu_bw", not "unknown"); its help lists only its own.
     */
    private static CommandLine commandLine(OsuBenchmark b) {
        CommandSpec spec = CommandSpec.create().name(b.command());
        spec.usageMessage().customSynopsis("mpirun-j bench " + b.command() + " -np N [options]",
                "   or: mpirun-j -np N [--threads] -cp CP " + b.mainClass() + " [options]")
                .optionListHeading("Options:%n").sortOptions(false).width(110);
        String iterations = "timed iterations per size (default " + b.iterationsSmall()
                + (b.hasSizes() ? " for small messages, " + b.iterationsLarge() + " above "
                        + OsuBenchmark.LARGE_MESSAGE_BYTES + " B" : "") + ")";
        String warmup = "untimed iterations before each size (default " + b.skipSmall()
                + (b.hasSizes() ? ", " + b.skipLarge() + " for large messages" : "") + ")";
        String full = "also print Min, Max, Iterations, P50, P99"
                + (b.kind() == OsuBenchmark.Kind.COLLECTIVE || b.kind() == OsuBenchmark.Kind.NO_SIZE
                        ? " and Last-Rank Done" : "")
                + (b == OsuBenchmark.BW ? " (no effect for osu_bw)" : "");
        spec.addOption(option(List.class, "[MIN:]MAX", !b.hasSizes(), "message sizes MIN..MAX bytes, powers of two "
                + "(default " + b.defaultMinBytes() + ":" + b.defaultMaxBytes() + ")", "-m", "--message-size"));
        spec.addOption(option(String.class, "ITER", false, iterations, "-i", "--iterations"));
        spec.addOption(option(String.class, "ITER", false, warmup, "-x", "--warmup"));
        spec.addOption(OptionSpec.builder("-f", "--full").description(full).build());
        spec.addOption(option(String.class, "SIZE", b != OsuBenchmark.BW,
                "messages sent before an acknowledgement (default " + DEFAULT_WINDOW + ")", "-W", "--window-size"));
        spec.addOption(option(String.class, "array|direct", !b.choosesMemory(),
                "the messages' memory: an array (array, the default) or a direct ByteBuffer (direct)", "--buffer"));
        spec.addOption(option(String.class, "K", b != OsuBenchmark.MULTICAST,
                "multicast from rank 0 to K ranks spread over 1..np-1 (default np-1)", "-g", "--group-size"));
        spec.addOption(option(String.class, "N", false, "untimed calls spread over all sizes (taken in turn) before "
                + "the first one, so the JIT has compiled every path (default " + b.defaultJitWarmup() + "; 0 for none)",
                "--jit-warmup"));
        spec.addOption(option(String.class, "A,B,...", b.op() == null, "time these " + b.op() + " algorithms in "
                + "this one job, interleaved in blocks of calls in a shuffled order per round, and print each one's "
                + "average and its ratio to the fastest (auto: the model's pick; a name twice: a second copy)",
                "--compare"));
        spec.addOption(option(String.class, "N", b.op() == null, "with --compare: calls per block (default: the "
                + "iterations / " + DEFAULT_ROUNDS + ", at least 1)", "--block"));
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("print this help").build());
        return new CommandLine(spec).setOverwrittenOptionsAllowed(true); // the last -i wins, as in OSU
    }

    private static OptionSpec option(Class<?> type, String label, boolean hidden, String description,
            String... names) {
        OptionSpec.Builder o = OptionSpec.builder(names).type(type).arity("1").paramLabel(label).hidden(hidden)
                .description(description);
        return (type == List.class ? o.auxiliaryTypes(String.class) : o).build();
    }

    /** The name {@code option} was given by in {@code args} (the last use), e.g. {@code -i} or {@code --iterations}. */
    private static String typed(OptionSpec option, String[] args) {
        for (int i = args.length - 1; i >= 0; i--) {
            for (String name : option.names()) {
                if (args[i].equals(name) || args[i].startsWith(name + "=")
                        || name.length() == 2 && !name.startsWith("--") && args[i].startsWith(name)) {
                    return name;
                }
            }
        }
        return option.longestName();
    }

    /** Option {@code name}'s whole-number value (at least {@code least}), or null if it was not given. */
    private static Integer number(OsuBenchmark b, ParseResult parsed, String name, String[] args, int least) {
        OptionSpec option = parsed.matchedOption(name);
        return option == null ? null : positive(b, typed(option, args), option.getValue(), least);
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
        if (b.op() != null) {
            e.add("--compare A,B,...");
            e.add("--block N");
        }
        e.add("-h");
        return String.join(", ", e);
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

    /** OSU-style help text (picocli's usage message). */
    public static String help(OsuBenchmark b) {
        return commandLine(b).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** These options with the largest size lowered to {@code max} (if it is lower). */
    public OsuOptions withMaxBytes(int max) {
        int m = Math.min(maxBytes, max);
        return new OsuOptions(benchmark, Math.min(minBytes, m), m, iterations, warmup, full, jitWarmup, window,
                groupSize, help, compare, block, directBuffers);
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

    /**
     * The messages of osu_latency and osu_bw: {@code maxBytes} bytes of ones (at least 1), made once;
     * the function gives a buffer over the first {@code size} of them ({@link #memory}).
     */
    public IntFunction<Buffer> messageBuffers() {
        return memory(ElementType.BYTE, maxBytes);
    }

    /**
     * A benchmark's memory: {@code elements} elements (at least 1) of {@code type} ({@code BYTE} or {@code FLOAT}),
     * each set to one, made once; the function gives a buffer over the first {@code n} of them. An array (byte[],
     * float[]) by default; with {@code --buffer direct} a direct ByteBuffer in the platform's byte order, the
     * memory OSU's C programs use (malloc), which the TCP transport writes from and reads large payloads into
     * directly (a collective may still stage data in heap scratch, as allreduce's partial results).
     */
    public IntFunction<Buffer> memory(ElementType type, int elements) {
        int n = Math.max(1, elements);
        Buffer ones = switch (type) {
            case BYTE -> {
                byte[] a = new byte[n];
                Arrays.fill(a, (byte) 1);
                yield Buffer.of(a);
            }
            case FLOAT -> {
                float[] a = new float[n];
                Arrays.fill(a, 1f);
                yield Buffer.of(a);
            }
            default -> throw new IllegalArgumentException("memory of " + type + " (expected: BYTE or FLOAT)");
        };
        Buffer memory = ones;
        if (directBuffers) { // the same values, converted into the direct buffer's byte order by Buffer's copy
            memory = Buffer.of(ByteBuffer.allocateDirect(ones.byteLength()).order(ByteOrder.nativeOrder()), type);
            memory.copyFrom(ones);
        }
        Buffer all = memory;
        return count -> all.slice(0, count);
    }

    /** {@code --buffer direct}: the messages are direct ByteBuffers rather than byte arrays. */
    public boolean directBuffers() {
        return directBuffers;
    }

    /** {@code -g}, or null for the default (every rank but the root). */
    public Integer groupSize() {
        return groupSize;
    }

    public boolean help() {
        return help;
    }

    /** {@code --compare}: the algorithms to time interleaved in this job, or null for one (the usual run). */
    public List<String> compare() {
        return compare;
    }

    /** With {@code --compare}: calls per block at {@code size} ({@code --block}, else iterations / {@value #DEFAULT_ROUNDS}). */
    public int block(int size) {
        return block != null ? block : Math.max(1, iterations(size) / DEFAULT_ROUNDS);
    }

    /** With {@code --compare}: rounds at {@code size}, enough for every algorithm's iterations. */
    public int rounds(int size) {
        return (iterations(size) + block(size) - 1) / block(size);
    }

    /** A short description of the warm-up, for the conditions line. */
    public String describeWarmup() {
        String perSize = benchmark.hasSizes() && warmup == null
                ? benchmark.skipSmall() + "/" + benchmark.skipLarge() + " (small/large)"
                : String.valueOf(warmup(0));
        return "-x " + perSize + " per size + " + jitWarmup + " JIT warm-up calls";
    }
}
