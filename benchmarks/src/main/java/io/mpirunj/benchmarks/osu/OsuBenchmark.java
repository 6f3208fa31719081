package io.mpirunj.benchmarks.osu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The OSU-style benchmarks: their command names, OSU titles, what they measure and OSU's defaults
 * (OSU Micro-Benchmarks {@value OsuTable#OSU_VERSION}: {@code osu_util.h}'s LAT_, BW_ and COLL_
 * loop and skip counts, 8 KiB as the small/large threshold, 4 MiB as the point-to-point and 1 MiB
 * as the collective maximum).
 *
 * <p>{@code osu_multicast} has no OSU original (MPI has no multicast); it follows osu_bcast's
 * layout and measures {@link io.mpirunj.Comm#multicast} from rank 0 to a group of ranks.
 */
public enum OsuBenchmark {
    LATENCY("osu_latency", "OSU MPI Latency Test", Kind.LATENCY, null, "OsuLatency", 1, 0, 1 << 22,
            10_000, 1_000, 100, 10, 20_000),
    BW("osu_bw", "OSU MPI Bandwidth Test", Kind.BANDWIDTH, null, "OsuBw", 1, 1, 1 << 22, 100, 20, 10, 2, 1_000),
    BCAST("osu_bcast", "OSU MPI Broadcast Latency Test", Kind.COLLECTIVE, "bcast", "OsuBcast", 1, 1, 1 << 20,
            1_000, 100, 100, 10, 2_000),
    MULTICAST("osu_multicast", "OSU MPI Multicast Latency Test", Kind.COLLECTIVE, "multicast", "OsuMulticast", 1, 1,
            1 << 20, 1_000, 100, 100, 10, 2_000),
    ALLTOALL("osu_alltoall", "OSU MPI All-to-All Personalized Exchange Latency Test", Kind.COLLECTIVE, "alltoall",
            "OsuAlltoall", 1, 1, 1 << 20, 1_000, 100, 100, 10, 2_000),
    BARRIER("osu_barrier", "OSU MPI Barrier Latency Test", Kind.NO_SIZE, "barrier", "OsuBarrier", 1, 0, 0,
            1_000, 1_000, 100, 100, 2_000),
    ALLREDUCE("osu_allreduce", "OSU MPI Allreduce Latency Test", Kind.COLLECTIVE, "allreduce", "OsuAllreduce", 4, 4,
            1 << 20, 1_000, 100, 100, 10, 2_000);

    /** What a benchmark measures, which decides its columns. */
    public enum Kind {
        /** Ping-pong between ranks 0 and 1: {@code # Size  Latency (us)}. */
        LATENCY,
        /** Windows of non-blocking sends from rank 0 to 1: {@code # Size  Bandwidth (MB/s)}. */
        BANDWIDTH,
        /** A collective over message sizes: {@code # Size  Avg Latency(us)}. */
        COLLECTIVE,
        /** A collective without a message (barrier): {@code # Avg Latency(us)}. */
        NO_SIZE
    }

    /** OSU's threshold between small and large messages (LARGE_MESSAGE_SIZE). */
    public static final int LARGE_MESSAGE_BYTES = 8192;

    private final String command;
    private final String title;
    private final Kind kind;
    private final String op;
    private final String simpleClassName;
    private final int elementBytes;
    private final int defaultMinBytes;
    private final int defaultMaxBytes;
    private final int iterationsSmall;
    private final int iterationsLarge;
    private final int skipSmall;
    private final int skipLarge;
    private final int defaultJitWarmup;

    OsuBenchmark(String command, String title, Kind kind, String op, String simpleClassName, int elementBytes,
            int defaultMinBytes, int defaultMaxBytes, int iterationsSmall, int iterationsLarge, int skipSmall,
            int skipLarge, int defaultJitWarmup) {
        this.command = command;
        this.title = title;
        this.kind = kind;
        this.op = op;
        this.simpleClassName = simpleClassName;
        this.elementBytes = elementBytes;
        this.defaultMinBytes = defaultMinBytes;
        this.defaultMaxBytes = defaultMaxBytes;
        this.iterationsSmall = iterationsSmall;
        this.iterationsLarge = iterationsLarge;
        this.skipSmall = skipSmall;
        this.skipLarge = skipLarge;
        this.defaultJitWarmup = defaultJitWarmup;
    }

    /** The command name, as OSU's binary: {@code osu_bcast}. */
    public String command() {
        return command;
    }

    /** OSU's title without the version: {@code OSU MPI Broadcast Latency Test}. */
    public String title() {
        return title;
    }

    public Kind kind() {
        return kind;
    }

    /** The collective operation measured, as {@code --coll} names it ({@code bcast}), or null for point-to-point. */
    public String op() {
        return op;
    }

    /** True for collectives with a root (rank 0), whose last-rank time is measured from the root's call. */
    public boolean rooted() {
        return this == BCAST || this == MULTICAST;
    }

    /** The SPMD program to run under mpirun-j. */
    public String mainClass() {
        return OsuBenchmark.class.getPackageName() + "." + simpleClassName;
    }

    /** The MPI datatype OSU uses (shown in the {@code # Datatype:} line). */
    public String datatype() {
        return elementBytes == 4 ? "MPI_FLOAT" : "MPI_CHAR";
    }

    /** Bytes per element of that datatype; sizes below it are skipped, as OSU does. */
    public int elementBytes() {
        return elementBytes;
    }

    public int defaultMinBytes() {
        return defaultMinBytes;
    }

    public int defaultMaxBytes() {
        return defaultMaxBytes;
    }

    public boolean hasSizes() {
        return kind != Kind.NO_SIZE;
    }

    /** True when the test needs exactly two ranks (OSU's point-to-point tests). */
    public boolean pointToPoint() {
        return kind == Kind.LATENCY || kind == Kind.BANDWIDTH;
    }

    /**
     * True when {@code --buffer array|direct} chooses the memory of its messages: the point-to-point tests and
     * the collectives whose buffers are plain bytes or floats (not multicast, barrier).
     */
    public boolean choosesMemory() {
        return pointToPoint() || this == BCAST || this == ALLTOALL || this == ALLREDUCE;
    }

    /** The command names of the benchmarks that {@link #choosesMemory}, as a list in words. */
    public static String choosingMemory() {
        List<String> names = new ArrayList<>();
        for (OsuBenchmark b : values()) {
            if (b.choosesMemory()) {
                names.add(b.command);
            }
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    public int iterationsSmall() {
        return iterationsSmall;
    }

    public int iterationsLarge() {
        return iterationsLarge;
    }

    public int skipSmall() {
        return skipSmall;
    }

    public int skipLarge() {
        return skipLarge;
    }

    /** Untimed calls made once before the first timed size so the JIT has compiled the hot paths. */
    public int defaultJitWarmup() {
        return defaultJitWarmup;
    }

    /** The benchmark with command name {@code name} ({@code osu_bcast}; {@code bcast} also works). */
    public static OsuBenchmark byCommand(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (OsuBenchmark b : values()) {
            if (b.command.equals(n) || b.command.equals("osu_" + n)) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown benchmark '" + name + "' (expected one of: " + commands() + ")");
    }

    /** The benchmark whose collective is {@code op} ({@code bcast}), or null. */
    public static OsuBenchmark byOp(String op) {
        for (OsuBenchmark b : values()) {
            if (op.equals(b.op)) {
                return b;
            }
        }
        return null;
    }

    /** The benchmark whose program is {@code mainClass}, or null. */
    public static OsuBenchmark byMainClass(String mainClass) {
        for (OsuBenchmark b : values()) {
            if (b.mainClass().equals(mainClass)) {
                return b;
            }
        }
        return null;
    }

    /** Every command name, comma separated. */
    public static String commands() {
        StringBuilder sb = new StringBuilder();
        for (OsuBenchmark b : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(b.command);
        }
        return sb.toString();
    }
}
