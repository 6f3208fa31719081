package io.mpirunj.benchmarks.mesh;

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
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Paper 000, figures 11-14: OPT-mesh vs OPT-tree vs U-mesh on the flit-level wormhole simulation
 * of a 16x16 mesh (XY routing, one-port, ss=2000, sd=2, cd=2, rs=3500, rd=3, 1-byte flits; times
 * in units of 10 ns), each point the mean over 16 random placements ({@code random:1} ..
 * {@code random:16}; rank 0 is the source).
 * <ul>
 *   <li>fig11: 32 nodes, multicast time vs message size;</li>
 *   <li>fig12: 128 nodes, vs message size;</li>
 *   <li>fig13: 4 KB messages, vs group size;</li>
 *   <li>fig14: 64 KB messages, vs group size.</li>
 * </ul>
 * OPT-tree and OPT-mesh choose their splits with the nominal model (t_hold = 2000 + 2m,
 * t_end = 5500 + 7m: the paper's IBM SP model, distance ignored). Writes {@code mesh-figures.csv}
 * and {@code fig11.png} .. {@code fig14.png} into the output directory (first argument, default
 * {@code target/mesh-figures}), and prints the wall time of simulating a 256-node multicast of
 * 64 KB.
 *
 * <p>Run: {@code mvn -o -f benchmarks/pom.xml -q exec:java
 * -Dexec.mainClass=io.mpirunj.benchmarks.mesh.MeshMulticastFigures} or with {@code java -cp}.
 */
public final class MeshMulticastFigures {

    static final Mesh MESH = Mesh.mesh(16, 16);
    static final WormholeParams PARAMS = WormholeParams.PAPER;
    static final List<String> ALGORITHMS = List.of("opt-mesh", "opt-tree", "u-mesh");
    static final int PLACEMENTS = 16;
    static final long[] SIZES = {1024, 8192, 16384, 24576, 32768, 40960, 49152, 57344, 65536};
    static final int[] GROUPS = {8, 16, 32, 48, 64, 96, 128, 160, 192, 224, 256};

    private MeshMulticastFigures() {
    }

    /** One averaged point. */
    record Point(String figure, String algorithm, int group, long bytes, double mean, double min, double max,
                 double contentionEvents) {
    }

    /** Mean multicast time (and contention) of {@code algorithm} over the 16 placements. */
    static Point point(String figure, String algorithm, int group, long bytes) {
        WormholeNetwork net = WormholeNetwork.flit(MESH, PARAMS, NodeModel.ONE_PORT);
        CostModel builderModel = PARAMS.nominalModel(1);
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        double events = 0;
        for (int seed = 1; seed <= PLACEMENTS; seed++) {
            int[] nodeOf = Placement.random(MESH.nodes(), group, seed);
            Schedule s = MeshMulticasts.multicast(algorithm, group, 0, bytes, builderModel, MESH, nodeOf);
            Simulation sim = Simulator.event(s, net, nodeOf);
            sum += sim.completion();
            min = Math.min(min, sim.completion());
            max = Math.max(max, sim.completion());
            events += sim.contentions().size();
        }
        return new Point(figure, algorithm, group, bytes, sum / PLACEMENTS, min, max, events / PLACEMENTS);
    }

    public static void main(String[] args) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        Path out = Path.of(args.length > 0 ? args[0] : "target/mesh-figures");
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        List<Point> points = new ArrayList<>();
        for (String a : ALGORITHMS) {
            for (long bytes : SIZES) {
                points.add(point("fig11", a, 32, bytes));
                points.add(point("fig12", a, 128, bytes));
            }
            for (int group : GROUPS) {
                points.add(point("fig13", a, group, 4096));
                points.add(point("fig14", a, group, 65536));
            }
        }
        double sweepSeconds = (System.nanoTime() - t0) / 1e9;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("mesh-figures.csv")))) {
            w.println("figure,algorithm,group,bytes,mean_time,min_time,max_time,mean_contention_events");
            for (Point p : points) {
                w.printf(Locale.ROOT, "%s,%s,%d,%d,%.1f,%.1f,%.1f,%.2f%n", p.figure(), p.algorithm(), p.group(), p.bytes(),
                        p.mean(), p.min(), p.max(), p.contentionEvents());
            }
        }
        chart(out, points, "fig11", "32-node multicast, 16x16 mesh", true);
        chart(out, points, "fig12", "128-node multicast, 16x16 mesh", true);
        chart(out, points, "fig13", "4 KB multicast, 16x16 mesh", false);
        chart(out, points, "fig14", "64 KB multicast, 16x16 mesh", false);
        printTable(points);
        System.out.printf(Locale.ROOT, "sweep: %d points x %d placements in %.2f s%n", points.size(), PLACEMENTS, sweepSeconds);
        timeLargest();
        System.out.println("wrote " + out.resolve("mesh-figures.csv") + " and fig11..fig14.png");
    }

    private static void chart(Path out, List<Point> points, String figure, String title, boolean bySize)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(800).height(560).title(title + " (" + PARAMS + ")")
                .xAxisTitle(bySize ? "message size (KB)" : "group size (nodes)")
                .yAxisTitle("multicast time (ms)").build();
        for (String a : ALGORITHMS) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Point p : points) {
                if (p.figure().equals(figure) && p.algorithm().equals(a)) {
                    x.add(bySize ? p.bytes() / 1024.0 : p.group());
                    y.add(p.mean() * 10e-9 * 1e3); // 1 unit = 10 ns
                }
            }
            chart.addSeries(a, x, y);
        }
        BitmapEncoder.saveBitmap(chart, out.resolve(figure + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void printTable(List<Point> points) {
        for (String figure : List.of("fig11", "fig12", "fig13", "fig14")) {
            System.out.println(figure + " (mean time in units of 10 ns; contention events per run)");
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %8s %6s", "bytes", "group"));
            for (String a : ALGORITHMS) {
                header.append(String.format(Locale.ROOT, " %12s %6s", a, "cont"));
            }
            System.out.println(header);
            List<Point> first = points.stream().filter(p -> p.figure().equals(figure) && p.algorithm().equals(ALGORITHMS.get(0))).toList();
            for (Point row : first) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %8d %6d", row.bytes(), row.group()));
                for (String a : ALGORITHMS) {
                    Point p = points.stream().filter(q -> q.figure().equals(figure) && q.algorithm().equals(a)
                            && q.group() == row.group() && q.bytes() == row.bytes()).findFirst().orElseThrow();
                    line.append(String.format(Locale.ROOT, " %12.0f %6.1f", p.mean(), p.contentionEvents()));
                }
                System.out.println(line);
            }
        }
    }

    /** Wall time of build + flit-level simulation of one 256-node 64 KB multicast (after warm-up). */
    private static void timeLargest() {
        for (String a : ALGORITHMS) {
            for (int warm = 0; warm < 3; warm++) {
                point("warm", a, 256, 65536);
            }
            int[] nodeOf = Placement.random(MESH.nodes(), 256, 1);
            WormholeNetwork net = WormholeNetwork.flit(MESH, PARAMS, NodeModel.ONE_PORT);
            int reps = 20;
            long start = System.nanoTime();
            Simulation sim = null;
            for (int r = 0; r < reps; r++) {
                Schedule s = MeshMulticasts.multicast(a, 256, 0, 65536, PARAMS.nominalModel(1), MESH, nodeOf);
                sim = Simulator.event(s, net, nodeOf);
            }
            double ms = (System.nanoTime() - start) / 1e6 / reps;
            System.out.printf(Locale.ROOT, "256-node 64 KB %-8s on mesh:16x16: build+simulate %.2f ms (completion %.0f, %d contention events)%n",
                    a, ms, sim.completion(), sim.contentions().size());
        }
    }
}
