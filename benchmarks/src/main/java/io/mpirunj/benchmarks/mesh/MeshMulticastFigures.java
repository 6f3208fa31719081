package io.mpirunj.benchmarks.mesh;

import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Config;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Fig;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Point;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Result;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.fabric.model.LinearFit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Paper 000, figures 11-14: OPT-mesh vs OPT-tree vs U-mesh on the flit-level wormhole simulation
 * of a 16x16 mesh, each point the mean over 16 random placements (the sweep itself is
 * {@link MeshFigureSweep}, shared with the papers report).
 * <ul>
 *   <li>fig11: 32 nodes, multicast time vs message size;</li>
 *   <li>fig12: 128 nodes, vs message size;</li>
 *   <li>fig13: 4 KB messages, vs group size;</li>
 *   <li>fig14: 64 KB messages, vs group size.</li>
 * </ul>
 * Writes {@code mesh-figures.csv} and {@code fig11.png} .. {@code fig14.png} into the output
 * directory (first argument, default {@code target/mesh-figures}; {@code --quick} anywhere for
 * {@link Config#QUICK}), prints the tables, the linear fits of figures 11-12 and the wall time of
 * simulating a 256-node multicast of 64 KB.
 *
 * <p>Run: {@code mvn -o -f benchmarks/pom.xml -q exec:java
 * -Dexec.mainClass=io.mpirunj.benchmarks.mesh.MeshMulticastFigures} or with {@code java -cp}.
 */
public final class MeshMulticastFigures {

    private MeshMulticastFigures() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of("target/mesh-figures");
        Config config = Config.FULL;
        for (String a : args) {
            if (a.equals("--quick")) {
                config = Config.QUICK;
            } else {
                out = Path.of(a);
            }
        }
        Files.createDirectories(out);
        Result result = MeshFigureSweep.run(config);
        result.writeCsv(out.resolve("mesh-figures.csv"));
        for (Fig fig : Fig.values()) {
            result.chart(fig).writePng(out.resolve(fig.id() + ".png"));
        }
        printTable(result);
        System.out.printf(Locale.ROOT, "sweep: %d points, %d simulations (%d placements each) in %.2f s%n",
                result.points().size(), result.simulations(), config.placements(), result.seconds());
        timeLargest();
        System.out.println("wrote " + out.resolve("mesh-figures.csv") + " and fig11..fig14.png");
    }

    private static void printTable(Result result) {
        List<String> algorithms = MeshFigureSweep.ALGORITHMS;
        for (Fig fig : Fig.values()) {
            System.out.println(fig.id() + ": " + fig.title() + " (mean time in units of 10 ns; contention events per run)");
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %8s %6s", "bytes", "group"));
            for (String a : algorithms) {
                header.append(String.format(Locale.ROOT, " %12s %6s", a, "cont"));
            }
            System.out.println(header);
            for (double x : result.xs(fig)) {
                Point row = result.at(fig, algorithms.get(0), x);
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %8d %6d", row.bytes(), row.group()));
                for (String a : algorithms) {
                    Point p = result.at(fig, a, x);
                    line.append(String.format(Locale.ROOT, " %12.0f %6.1f", p.mean(), p.meanContention()));
                }
                System.out.println(line);
            }
            if (fig.bySize()) {
                for (String a : algorithms) {
                    List<Point> s = result.series(fig, a);
                    LinearFit f = LinearFit.of(s.stream().mapToDouble(p -> p.bytes()).toArray(),
                            s.stream().mapToDouble(Point::mean).toArray());
                    System.out.printf(Locale.ROOT, "  %-8s time = %.0f + %.3f·m  (R² %.6f, max residual %.0f)%n", a,
                            f.intercept(), f.slope(), f.r2(), f.maxResidual());
                }
            }
        }
    }

    /** Wall time of build + flit-level simulation of one 256-node 64 KB multicast (after warm-up). */
    private static void timeLargest() {
        for (String a : MeshFigureSweep.ALGORITHMS) {
            for (int warm = 0; warm < 3; warm++) {
                MeshFigureSweep.simulate(a, 256, 65536, 1);
            }
            int reps = 20;
            long start = System.nanoTime();
            Simulation sim = null;
            for (int r = 0; r < reps; r++) {
                sim = MeshFigureSweep.simulate(a, 256, 65536, 1);
            }
            double ms = (System.nanoTime() - start) / 1e6 / reps;
            System.out.printf(Locale.ROOT, "256-node 64 KB %-8s on mesh:16x16: build+simulate %.2f ms (completion %.0f, %d contention events)%n",
                    a, ms, sim.completion(), sim.contentions().size());
        }
    }
}
