package io.mpirunj.benchmarks.sweep;

import io.mpirunj.benchmarks.csv.CsvTable;
import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuTable;
import io.mpirunj.benchmarks.render.Charts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A sweep: one OSU-style benchmark run for every algorithm x rank count (each a separate mpirun-j
 * job with {@code --coll OP=ALGORITHM}), optionally beside other runtimes ({@link ExternalRuntime}),
 * collected into one CSV, one side-by-side table and PNG charts with one line per algorithm.
 *
 * <p>Every job runs with {@code -f}, so the CSV has every column (Min, Max, Iterations, P50, P99,
 * Last-Rank Done) whatever the table shows.
 */
public final class Sweep {
    public static final String MPIRUN_J = "mpirun-j";

    private final OsuBenchmark benchmark;
    private final List<String> algorithms;
    private final List<Integer> nps;
    private final List<String> args;
    private final boolean threads;

    /**
     * @param algorithms the algorithms of {@code benchmark.op()} to force, in order (null entry: the default choice)
     * @param args the benchmark's options ({@code -m 1:4096 -i 100}); {@code -f} is added
     */
    public Sweep(OsuBenchmark benchmark, List<String> algorithms, List<Integer> nps, List<String> args, boolean threads) {
        if (benchmark.op() == null && algorithms.stream().anyMatch(a -> a != null)) {
            throw new IllegalArgumentException(benchmark.command() + " is point-to-point: it has no algorithms to sweep");
        }
        this.benchmark = benchmark;
        this.algorithms = new ArrayList<>(algorithms);
        this.nps = List.copyOf(nps);
        List<String> a = new ArrayList<>(args);
        if (!a.contains("-f") && !a.contains("--full")) {
            a.add("-f");
        }
        this.args = List.copyOf(a);
        this.threads = threads;
    }

    public OsuBenchmark benchmark() {
        return benchmark;
    }

    /** The benchmark options every job gets (with {@code -f}). */
    public List<String> args() {
        return args;
    }

    /**
     * Runs every job in turn (algorithm-major), then the other runtimes that are available; for
     * those that are not, one {@code skipped: ...} line goes to {@code messages}.
     */
    public List<SweepPoint> run(JobRunner runner, List<ExternalRuntime> others, Progress progress, PrintStream messages)
            throws Exception {
        List<ExternalRuntime> available = new ArrayList<>();
        for (ExternalRuntime r : others) {
            String why = r.unavailableReason(benchmark);
            if (why == null) {
                available.add(r);
            } else {
                messages.println("skipped: " + why);
                messages.flush();
            }
        }
        List<SweepPoint> points = new ArrayList<>();
        progress.start((algorithms.size() + available.size()) * nps.size());
        for (String algorithm : algorithms) {
            for (int np : nps) {
                String coll = algorithm == null ? null : benchmark.op() + "=" + algorithm;
                progress.step((coll == null ? benchmark.command() : coll) + " np=" + np);
                String out = runner.run(new SweepJob(np, threads, coll, benchmark.mainClass(), args));
                List<OsuTable.Row> rows = OsuTable.parse(benchmark, out);
                if (rows.isEmpty()) {
                    throw new IllegalStateException(benchmark.command() + " " + coll + " np " + np
                            + " printed no results:\n" + out);
                }
                for (OsuTable.Row row : rows) {
                    points.add(new SweepPoint(MPIRUN_J, algorithm == null ? "default" : algorithm, np, row));
                }
            }
        }
        for (ExternalRuntime r : available) {
            for (int np : nps) {
                progress.step(r.name() + " np=" + np);
                for (OsuTable.Row row : OsuTable.parse(benchmark, r.run(benchmark, np, args))) {
                    points.add(new SweepPoint(r.name(), r.algorithmLabel(), np, row));
                }
            }
        }
        progress.done();
        return points;
    }

    /** The CSV's columns. */
    static String[] csvColumns(OsuBenchmark b) {
        return new String[] {"benchmark", "runtime", "algorithm", "np", "size_bytes",
                b.kind() == OsuBenchmark.Kind.BANDWIDTH ? "bandwidth_mb_s" : "avg_latency_us", "min_latency_us",
                "max_latency_us", "iterations", "p50_latency_us", "p99_latency_us", "last_rank_done_us"};
    }

    /** Writes every point to {@code csv} (unmeasured values are empty). */
    public static void writeCsv(Path csv, OsuBenchmark b, List<SweepPoint> points) throws IOException {
        CsvTable table = new CsvTable(csvColumns(b));
        for (SweepPoint p : points) {
            OsuTable.Row r = p.row();
            table.row(b.command(), p.runtime(), p.algorithm(), p.np(), r.size() < 0 ? null : r.size(), num(r.value()),
                    num(r.minUs()), num(r.maxUs()), r.iterations() < 0 ? null : r.iterations(), num(r.p50Us()),
                    num(r.p99Us()), num(r.lastRankDoneUs()));
        }
        table.write(csv);
    }

    private static String num(double v) {
        return CsvTable.decimal(v, 3);
    }

    /**
     * Writes the charts into {@code dir}: for each rank count, the first column (latency or
     * bandwidth) against message size, one line per algorithm (and other runtime); with several rank
     * counts, also against np at the largest size. Returns the files written.
     */
    public static List<Path> writeCharts(Path dir, OsuBenchmark b, List<SweepPoint> points) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        Set<Integer> nps = new TreeSet<>();
        Set<String> series = new LinkedHashSet<>();
        for (SweepPoint p : points) {
            nps.add(p.np());
            series.add(p.series());
        }
        List<String> seriesOrder = new ArrayList<>(series);
        String yTitle = b.kind() == OsuBenchmark.Kind.BANDWIDTH ? "bandwidth (MB/s)" : "avg latency (us)";
        if (b.hasSizes()) {
            for (int np : nps) {
                List<Charts.Series> lines = new ArrayList<>();
                for (String s : seriesOrder) {
                    List<double[]> xy = new ArrayList<>();
                    for (SweepPoint p : points) {
                        if (p.np() == np && p.series().equals(s)) {
                            xy.add(new double[] {p.row().size() == 0 ? -1 : log2(p.row().size()), p.row().value()});
                        }
                    }
                    if (!xy.isEmpty()) {
                        lines.add(series(s, xy, seriesOrder.indexOf(s)));
                    }
                }
                Path png = dir.resolve(b.command() + "-np" + np + ".png");
                Charts.line(b.command() + ", np " + np, "message size (log2 bytes)", yTitle, lines, 900, 500)
                        .writePng(png);
                written.add(png);
            }
        }
        if (nps.size() > 1 || !b.hasSizes()) {
            long size = points.stream().mapToLong(p -> p.row().size()).max().orElse(-1);
            List<Charts.Series> lines = new ArrayList<>();
            for (String s : seriesOrder) {
                List<double[]> xy = new ArrayList<>();
                for (SweepPoint p : points) {
                    if (p.series().equals(s) && p.row().size() == size) {
                        xy.add(new double[] {p.np(), p.row().value()});
                    }
                }
                if (!xy.isEmpty()) {
                    lines.add(series(s, xy, seriesOrder.indexOf(s)));
                }
            }
            Path png = dir.resolve(b.command() + "-by-np.png");
            Charts.line(b.command() + (size >= 0 ? ", " + size + " bytes" : ""), "ranks (np)", yTitle, lines, 900, 500)
                    .writePng(png);
            written.add(png);
        }
        return written;
    }

    private static Charts.Series series(String name, List<double[]> xy, int style) {
        double[] x = new double[xy.size()];
        double[] y = new double[xy.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = xy.get(i)[0];
            y[i] = xy.get(i)[1];
        }
        return new Charts.Series(name, x, y, style);
    }

    private static double log2(long v) {
        return Math.log(v) / Math.log(2);
    }

    /**
     * The side-by-side table: for each rank count, one row per size and one column per algorithm
     * (and other runtime), holding the first column of the OSU table (avg latency or bandwidth).
     */
    public static String table(OsuBenchmark b, List<SweepPoint> points) {
        Map<Integer, Map<String, Map<Long, Double>>> byNp = new LinkedHashMap<>();
        Set<String> series = new LinkedHashSet<>();
        for (SweepPoint p : points) {
            byNp.computeIfAbsent(p.np(), k -> new LinkedHashMap<>()).computeIfAbsent(p.series(), k -> new LinkedHashMap<>())
                    .put(p.row().size(), p.row().value());
            series.add(p.series());
        }
        String what = b.kind() == OsuBenchmark.Kind.BANDWIDTH ? "Bandwidth (MB/s)" : "Avg Latency(us)";
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(b.command()).append(" sweep: ").append(what).append(" by algorithm").append('\n');
        for (Map.Entry<Integer, Map<String, Map<Long, Double>>> e : byNp.entrySet()) {
            sb.append("# np ").append(e.getKey()).append('\n');
            List<String> cols = new ArrayList<>();
            for (String s : series) {
                if (e.getValue().containsKey(s)) {
                    cols.add(s);
                }
            }
            sb.append(b.hasSizes() ? String.format("%-10s", "# Size") : "#");
            for (String c : cols) {
                sb.append(String.format("%" + Math.max(18, c.length() + 2) + "s", c));
            }
            sb.append('\n');
            Set<Long> sizes = new TreeSet<>();
            e.getValue().values().forEach(m -> sizes.addAll(m.keySet()));
            for (long size : sizes) {
                sb.append(b.hasSizes() ? String.format("%-10d", size) : " ");
                for (String c : cols) {
                    Double v = e.getValue().get(c).get(size);
                    sb.append(String.format(Locale.ROOT, "%" + Math.max(18, c.length() + 2) + "s",
                            v == null ? "-" : String.format(Locale.ROOT, "%.2f", v)));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }
}
