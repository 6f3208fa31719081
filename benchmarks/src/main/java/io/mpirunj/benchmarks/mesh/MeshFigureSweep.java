package io.mpirunj.benchmarks.mesh;

import io.mpirunj.benchmarks.csv.CsvTable;
import io.mpirunj.benchmarks.render.Charts;
import io.mpirunj.benchmarks.render.Picture;
import io.mpirunj.collectives.mesh.MeshMulticasts;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The sweep behind paper 000's figures 11-14: OPT-mesh, OPT-tree and U-mesh on the flit-level
 * wormhole simulation of a 16x16 mesh (XY routing, one-port, ss=2000, sd=2, cd=2, rs=3500, rd=3,
 * 1-byte flits; times in units of 10 ns), each point the mean over random placements
 * {@code random:1} .. {@code random:P} (rank 0 is the source). OPT-tree and OPT-mesh choose their
 * splits with the nominal model (t_hold = 2000 + 2m, t_end = 5500 + 7m: the paper's IBM SP model,
 * distance ignored).
 *
 * <p>The one implementation used by the {@link MeshMulticastFigures} benchmark (CSV + PNGs) and
 * by the papers report's figures 11-14 item; {@link Config#FULL} is the paper's setting (16
 * placements), {@link Config#QUICK} a trimmed one for CI.
 */
public final class MeshFigureSweep {

    public static final Mesh MESH = Mesh.mesh(16, 16);
    public static final WormholeParams PARAMS = WormholeParams.PAPER;
    /** Report order; the series' chart style is the index. */
    public static final List<String> ALGORITHMS = List.of("opt-mesh", "opt-tree", "u-mesh");
    /** One model time unit in seconds (ss = 2000 units = the IBM SP's 20 µs). */
    public static final double UNIT_SECONDS = 10e-9;

    /** The four figures: two vary the message size at a fixed group, two the group at a fixed size. */
    public enum Fig {
        FIG11(11, "32-node multicast", 32, 0),
        FIG12(12, "128-node multicast", 128, 0),
        FIG13(13, "4 KB multicast", 0, 4096),
        FIG14(14, "64 KB multicast", 0, 65536);

        private final int number;
        private final String title;
        private final int group;
        private final long bytes;

        Fig(int number, String title, int group, long bytes) {
            this.number = number;
            this.title = title;
            this.group = group;
            this.bytes = bytes;
        }

        /** {@code "fig11"} .. {@code "fig14"}: file stem and CSV key. */
        public String id() {
            return "fig" + number;
        }

        /** The paper's figure number. */
        public int number() {
            return number;
        }

        /** E.g. "32-node multicast". */
        public String title() {
            return title;
        }

        /** True when the x axis is the message size (figures 11, 12), false for the group size. */
        public boolean bySize() {
            return group > 0;
        }

        /** The fixed group size (figures 11, 12); 0 otherwise. */
        public int group() {
            return group;
        }

        /** The fixed message size in bytes (figures 13, 14); 0 otherwise. */
        public long bytes() {
            return bytes;
        }

        /** The x value of {@code p} on this figure's axis: KB or nodes. */
        public double x(Point p) {
            return bySize() ? p.bytes() / 1024.0 : p.group();
        }
    }

    /**
     * What to sweep.
     *
     * @param placements random placements per point, seeds 1..placements
     * @param sizes      message sizes (bytes) of figures 11 and 12, ascending
     * @param groups     group sizes of figures 13 and 14, ascending
     */
    public record Config(int placements, long[] sizes, int[] groups) {

        /** The paper's setting: 16 placements, 1-64 KB, 8-256 nodes (120 points, 1920 simulations). */
        public static final Config FULL = new Config(16,
                new long[] {1024, 8192, 16384, 24576, 32768, 40960, 49152, 57344, 65536},
                new int[] {8, 16, 32, 48, 64, 96, 128, 160, 192, 224, 256});

        /**
         * CI: the paper's 16 placements (its claims are about 16-placement means; fewer flip the
         * closest orderings), but only 4 sizes and 4 groups (48 points, 672 simulations, about a second).
         */
        public static final Config QUICK = new Config(16, new long[] {1024, 16384, 32768, 65536},
                new int[] {8, 32, 128, 256});

        public Config {
            if (placements < 1) {
                throw new IllegalArgumentException("placements=" + placements + " (expected: >= 1)");
            }
            sizes = sizes.clone();
            groups = groups.clone();
            if (sizes.length < 2 || groups.length < 2) {
                throw new IllegalArgumentException("sizes=" + Arrays.toString(sizes) + " groups=" + Arrays.toString(groups)
                        + " (expected: at least 2 of each)");
            }
            for (int g : groups) {
                if (g < 2 || g > MESH.nodes()) {
                    throw new IllegalArgumentException("group " + g + " (expected: 2.." + MESH.nodes() + ")");
                }
            }
        }

        @Override
        public long[] sizes() {
            return sizes.clone();
        }

        @Override
        public int[] groups() {
            return groups.clone();
        }
    }

    /**
     * One averaged point of one figure.
     *
     * @param mean           mean multicast time over the placements (10 ns units)
     * @param meanContention contention events per run, averaged
     * @param maxContention  contention events of the worst run
     * @param times          each run's multicast time, placement {@code random:i+1} at index i
     */
    public record Point(Fig figure, String algorithm, int group, long bytes, double mean, double min, double max,
                        double meanContention, int maxContention, double[] times) {

        public Point {
            times = times.clone();
        }

        /** Placements simulated. */
        public int runs() {
            return times.length;
        }

        /** Multicast time of placement {@code random:i+1}. */
        public double time(int i) {
            return times[i];
        }

        /** Mean time over the first {@code n} placements only. */
        public double meanOfFirst(int n) {
            return Arrays.stream(times, 0, n).average().orElseThrow();
        }

        @Override
        public double[] times() {
            return times.clone();
        }

        public double meanMillis() {
            return mean * UNIT_SECONDS * 1e3;
        }

        Point in(Fig other) {
            return new Point(other, algorithm, group, bytes, mean, min, max, meanContention, maxContention, times);
        }
    }

    /** A finished sweep: every figure's points, in {@link Fig} then {@link #ALGORITHMS} then x order. */
    public record Result(Config config, List<Point> points, int simulations, double seconds) {

        public Result {
            points = List.copyOf(points);
        }

        /** One algorithm's line in one figure, ascending x. */
        public List<Point> series(Fig fig, String algorithm) {
            return points.stream().filter(p -> p.figure() == fig && p.algorithm().equals(algorithm)).toList();
        }

        /** The point of {@code algorithm} in {@code fig} at x (KB or nodes). */
        public Point at(Fig fig, String algorithm, double x) {
            return series(fig, algorithm).stream().filter(p -> fig.x(p) == x).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(fig.id() + " has no " + algorithm + " point at " + x));
        }

        /** The figure's x values, ascending (KB or nodes). */
        public double[] xs(Fig fig) {
            return series(fig, ALGORITHMS.get(0)).stream().mapToDouble(fig::x).toArray();
        }

        /** The figure like the paper's: multicast time (ms) vs message size (KB) or group size. */
        public Picture chart(Fig fig) {
            List<Charts.Series> lines = new ArrayList<>();
            for (int a = 0; a < ALGORITHMS.size(); a++) {
                List<Point> s = series(fig, ALGORITHMS.get(a));
                lines.add(new Charts.Series(displayName(ALGORITHMS.get(a)),
                        s.stream().mapToDouble(fig::x).toArray(), s.stream().mapToDouble(Point::meanMillis).toArray(), a));
            }
            String title = "Fig. " + fig.number() + ": " + fig.title() + ", 16×16 mesh (mean of " + config.placements()
                    + " placements)";
            return Charts.line(title, fig.bySize() ? "message size (KB)" : "group size (nodes)",
                    "multicast time (ms)", lines, 900, 560);
        }

        /** {@code figure,algorithm,group,bytes,mean_time,min_time,max_time,mean_contention_events,max_contention_events}. */
        public void writeCsv(Path file) throws IOException {
            CsvTable table = new CsvTable("figure", "algorithm", "group", "bytes", "mean_time", "min_time", "max_time",
                    "mean_contention_events", "max_contention_events");
            for (Point p : points) {
                table.row(p.figure().id(), p.algorithm(), p.group(), p.bytes(), CsvTable.decimal(p.mean(), 1),
                        CsvTable.decimal(p.min(), 1), CsvTable.decimal(p.max(), 1),
                        CsvTable.decimal(p.meanContention(), 2), p.maxContention());
            }
            table.write(file);
        }
    }

    private MeshFigureSweep() {
    }

    /** The paper's spelling: {@code opt-mesh} → OPT-mesh, {@code u-mesh} → U-mesh. */
    public static String displayName(String algorithm) {
        int dash = algorithm.indexOf('-');
        return dash < 0 ? algorithm : algorithm.substring(0, dash).toUpperCase(Locale.ROOT) + algorithm.substring(dash);
    }

    /** Runs the four figures; a point shared by two figures (e.g. 32 nodes, 64 KB) is simulated once. */
    public static Result run(Config config) {
        Objects.requireNonNull(config, "config");
        long t0 = System.nanoTime();
        Map<String, Point> cache = new HashMap<>();
        List<Point> points = new ArrayList<>();
        for (Fig fig : Fig.values()) {
            for (String a : ALGORITHMS) {
                if (fig.bySize()) {
                    for (long bytes : config.sizes()) {
                        points.add(cached(cache, fig, a, fig.group(), bytes, config.placements()));
                    }
                } else {
                    for (int group : config.groups()) {
                        points.add(cached(cache, fig, a, group, fig.bytes(), config.placements()));
                    }
                }
            }
        }
        return new Result(config, points, cache.size() * config.placements(), (System.nanoTime() - t0) / 1e9);
    }

    private static Point cached(Map<String, Point> cache, Fig fig, String algorithm, int group, long bytes,
                                int placements) {
        Point p = cache.computeIfAbsent(algorithm + "/" + group + "/" + bytes,
                k -> point(fig, algorithm, group, bytes, placements));
        return p.figure() == fig ? p : p.in(fig);
    }

    /** Multicast time (and contention) of {@code algorithm} over placements {@code random:1..placements}. */
    public static Point point(Fig fig, String algorithm, int group, long bytes, int placements) {
        WormholeNetwork net = WormholeNetwork.flit(MESH, PARAMS, NodeModel.ONE_PORT);
        CostModel builderModel = PARAMS.nominalModel(1);
        double[] times = new double[placements];
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        long events = 0;
        int maxEvents = 0;
        for (int seed = 1; seed <= placements; seed++) {
            Simulation sim = simulate(algorithm, group, bytes, seed, net, builderModel);
            times[seed - 1] = sim.completion();
            sum += sim.completion();
            min = Math.min(min, sim.completion());
            max = Math.max(max, sim.completion());
            events += sim.contentions().size();
            maxEvents = Math.max(maxEvents, sim.contentions().size());
        }
        return new Point(fig, algorithm, group, bytes, sum / placements, min, max, (double) events / placements,
                maxEvents, times);
    }

    /** One run: build {@code algorithm} for placement {@code random:seed} and simulate it flit by flit. */
    public static Simulation simulate(String algorithm, int group, long bytes, long seed) {
        return simulate(algorithm, group, bytes, seed, WormholeNetwork.flit(MESH, PARAMS, NodeModel.ONE_PORT),
                PARAMS.nominalModel(1));
    }

    private static Simulation simulate(String algorithm, int group, long bytes, long seed, WormholeNetwork net,
                                       CostModel builderModel) {
        int[] nodeOf = Placement.random(MESH.nodes(), group, seed);
        Schedule s = MeshMulticasts.multicast(algorithm, group, 0, bytes, builderModel, MESH, nodeOf);
        return Simulator.event(s, net, nodeOf);
    }
}
