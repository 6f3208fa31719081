package io.mpirunj.benchmarks.osu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The output layout of the OSU Micro-Benchmarks {@value #OSU_VERSION}, and a parser for it (ours
 * and OSU's own binaries' output alike).
 *
 * <pre>
 * (blank line: collectives only, as OSU's print_preamble)
 * # OSU MPI Broadcast Latency Test v7.4
 * # mpirun-j: np 8, threads (LocalTransport), bcast=binomial-p2p; ...        (ours; a comment line)
 * # Datatype: MPI_CHAR.
 * # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations   P50 Latency(us)   P99 Latency(us)  Last-Rank Done(us)
 * 1                       1.85              1.20              2.41        1000              1.70              4.12                2.95
 * </pre>
 *
 * Columns as OSU prints them: size {@code %-10d}, values {@code %18.2f} ({@code %17.2f} for the
 * first column of osu_barrier, which has no size), iterations {@code %12d}. Without {@code -f} the
 * table is exactly OSU's. With {@code -f}, OSU's full columns (Min, Max, Iterations) come first,
 * exactly as OSU prints them, then ours: P50 and P99 ({@code %18.2f}) and Last-Rank Done
 * ({@code %20.2f}).
 */
public final class OsuTable {
    /** The OSU Micro-Benchmarks release whose layout we follow. */
    public static final String OSU_VERSION = "7.4";
    /** OSU's FIELD_WIDTH in osu_util_mpi.h. */
    public static final int FIELD_WIDTH = 18;
    /** Width of the Last-Rank Done column (its title is as long as a field). */
    public static final int LAST_RANK_WIDTH = 20;

    public static final String P50 = "P50 Latency(us)";
    public static final String P99 = "P99 Latency(us)";
    public static final String LAST_RANK_DONE = "Last-Rank Done(us)";

    private OsuTable() {
    }

    /**
     * One row of results. Fields a benchmark does not measure are NaN (or -1 for size and iterations).
     *
     * @param size message size in bytes, or -1 for osu_barrier
     * @param value the first column: latency (us) or bandwidth (MB/s)
     * @param minUs smallest per-rank mean (collectives) or smallest single latency (osu_latency)
     * @param maxUs largest per-rank mean (collectives) or largest single latency (osu_latency)
     * @param iterations timed iterations
     * @param p50Us median of every timed call on every rank
     * @param p99Us 99th percentile of the same
     * @param lastRankDoneUs mean over iterations of the time from the start (the root's call; for
     *     unrooted collectives the last rank's call) to the return of the last rank
     */
    public record Row(long size, double value, double minUs, double maxUs, long iterations, double p50Us, double p99Us,
            double lastRankDoneUs) {

        /** A row with only the first column (OSU without -f). */
        public static Row of(long size, double value) {
            return new Row(size, value, Double.NaN, Double.NaN, -1, Double.NaN, Double.NaN, Double.NaN);
        }

        public boolean hasFull() {
            return iterations >= 0;
        }
    }

    /** OSU's title line: {@code # OSU MPI Broadcast Latency Test v7.4}. */
    public static String title(OsuBenchmark b) {
        return "# " + b.title() + " v" + OSU_VERSION;
    }

    /** OSU's datatype line: {@code # Datatype: MPI_CHAR.} */
    public static String datatypeLine(OsuBenchmark b) {
        return "# Datatype: " + b.datatype() + ".";
    }

    /** The column header line. */
    public static String columnHeader(OsuBenchmark b, boolean full) {
        StringBuilder sb = new StringBuilder();
        switch (b.kind()) {
            case LATENCY -> sb.append(String.format("%-10s%" + FIELD_WIDTH + "s", "# Size", "Latency (us)"));
            case BANDWIDTH -> sb.append(String.format("%-10s%" + FIELD_WIDTH + "s", "# Size", "Bandwidth (MB/s)"));
            case COLLECTIVE -> sb.append(String.format("%-10s%" + FIELD_WIDTH + "s", "# Size", "Avg Latency(us)"));
            case NO_SIZE -> sb.append("# Avg Latency(us)");
        }
        if (full && b.kind() != OsuBenchmark.Kind.BANDWIDTH) {
            sb.append(String.format("%" + FIELD_WIDTH + "s%" + FIELD_WIDTH + "s%12s", "Min Latency(us)", "Max Latency(us)",
                    "Iterations"));
            sb.append(String.format("%" + FIELD_WIDTH + "s%" + FIELD_WIDTH + "s", P50, P99));
            if (b.kind() != OsuBenchmark.Kind.LATENCY) {
                sb.append(String.format("%" + LAST_RANK_WIDTH + "s", LAST_RANK_DONE));
            }
        }
        return sb.toString();
    }

    /**
     * Every line before the first row: for collectives a blank line (OSU's preamble), the title, our
     * conditions line ({@code # mpirun-j: ...}, omitted when null), the datatype (not for osu_barrier)
     * and the column header.
     */
    public static List<String> header(OsuBenchmark b, boolean full, String conditions) {
        List<String> lines = new ArrayList<>();
        if (!b.pointToPoint()) {
            lines.add("");
        }
        lines.add(title(b));
        if (conditions != null) {
            lines.add("# mpirun-j: " + conditions);
        }
        if (b.hasSizes()) {
            lines.add(datatypeLine(b)); // osu_barrier moves no data and prints no datatype
        }
        lines.add(columnHeader(b, full));
        return lines;
    }

    /** One data line in OSU's layout. */
    public static String row(OsuBenchmark b, boolean full, Row r) {
        StringBuilder sb = new StringBuilder();
        if (b.hasSizes()) {
            sb.append(String.format(Locale.ROOT, "%-10d%" + FIELD_WIDTH + ".2f", r.size(), r.value()));
        } else {
            sb.append(String.format(Locale.ROOT, "%17.2f", r.value()));
        }
        if (full && b.kind() != OsuBenchmark.Kind.BANDWIDTH) {
            sb.append(String.format(Locale.ROOT, "%" + FIELD_WIDTH + ".2f%" + FIELD_WIDTH + ".2f%12d", r.minUs(), r.maxUs(),
                    r.iterations()));
            sb.append(String.format(Locale.ROOT, "%" + FIELD_WIDTH + ".2f%" + FIELD_WIDTH + ".2f", r.p50Us(), r.p99Us()));
            if (b.kind() != OsuBenchmark.Kind.LATENCY) {
                sb.append(String.format(Locale.ROOT, "%" + LAST_RANK_WIDTH + ".2f", r.lastRankDoneUs()));
            }
        }
        return sb.toString();
    }

    /**
     * The rows of an OSU-format output (ours, or an OSU binary's): every line that is neither blank
     * nor a {@code #} comment and starts with a number. Columns beyond those known are ignored;
     * missing ones are NaN.
     */
    public static List<Row> parse(OsuBenchmark b, String output) {
        List<Row> rows = new ArrayList<>();
        for (String line : output.split("\\R")) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#") || !(Character.isDigit(t.charAt(0)) || t.charAt(0) == '-')) {
                continue;
            }
            String[] f = t.split("\\s+");
            try {
                int i = 0;
                long size = b.hasSizes() ? Long.parseLong(f[i++]) : -1;
                double value = Double.parseDouble(f[i++]);
                double min = f.length > i ? Double.parseDouble(f[i]) : Double.NaN;
                double max = f.length > i + 1 ? Double.parseDouble(f[i + 1]) : Double.NaN;
                long iters = f.length > i + 2 ? Long.parseLong(f[i + 2]) : -1;
                double p50 = f.length > i + 3 ? Double.parseDouble(f[i + 3]) : Double.NaN;
                double p99 = f.length > i + 4 ? Double.parseDouble(f[i + 4]) : Double.NaN;
                double last = f.length > i + 5 ? Double.parseDouble(f[i + 5]) : Double.NaN;
                rows.add(new Row(size, value, min, max, iters, p50, p99, last));
            } catch (RuntimeException notARow) {
                // a message line that happens to start with a digit: not part of the table
            }
        }
        return rows;
    }
}
