package io.mpirunj.benchmarks.mesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Config;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Fig;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Point;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Result;
import io.mpirunj.benchmarks.render.PictureChecks;
import io.mpirunj.fabric.model.LinearFit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeshFigureSweepTest {

    /** Small enough for a unit test: 2 placements, 2 sizes, 2 groups. */
    static final Config TINY = new Config(2, new long[] {1024, 4096}, new int[] {8, 32});

    static Result tiny;

    @BeforeAll
    static void sweep() {
        tiny = MeshFigureSweep.run(TINY);
    }

    @Test
    void everyFigureHasEveryAlgorithmAtEveryX() {
        assertEquals(4 * 3 * 2, tiny.points().size());
        assertArrayEquals(new double[] {1, 4}, tiny.xs(Fig.FIG11));
        assertArrayEquals(new double[] {8, 32}, tiny.xs(Fig.FIG13));
        for (Fig fig : Fig.values()) {
            for (String a : MeshFigureSweep.ALGORITHMS) {
                List<Point> s = tiny.series(fig, a);
                assertEquals(2, s.size(), fig + " " + a);
                for (Point p : s) {
                    assertEquals(fig, p.figure());
                    assertEquals(2, p.runs());
                    assertEquals((p.time(0) + p.time(1)) / 2, p.mean(), 1e-9);
                    assertTrue(p.min() <= p.mean() && p.mean() <= p.max());
                    assertEquals(fig.bySize() ? fig.group() : p.group(), p.group());
                    assertEquals(fig.bySize() ? p.bytes() : fig.bytes(), p.bytes());
                }
            }
        }
        // fig13 (4 KB) at 32 nodes is fig11 (32 nodes) at 4 KB: simulated once, the same numbers.
        Point a = tiny.at(Fig.FIG11, "u-mesh", 4);
        Point b = tiny.at(Fig.FIG13, "u-mesh", 32);
        assertArrayEquals(a.times(), b.times());
        assertEquals((4 * 3 * 2 - 3) * 2, tiny.simulations());
    }

    @Test
    void pointsAgreeWithSingleSimulationsAndOptMeshIsContentionFree() {
        Point p = tiny.at(Fig.FIG11, "opt-mesh", 4);
        assertEquals(MeshFigureSweep.simulate("opt-mesh", 32, 4096, 2).completion(), p.time(1), 0);
        for (Fig fig : Fig.values()) {
            for (Point q : tiny.series(fig, "opt-mesh")) {
                assertEquals(0, q.maxContention(), q.toString());
            }
        }
        // U-mesh's time grows by exactly log2(32) · (sd + cd + rd) = 5 · 7 units per byte.
        assertEquals(35.0 * 3072, tiny.at(Fig.FIG11, "u-mesh", 4).mean() - tiny.at(Fig.FIG11, "u-mesh", 1).mean(), 1e-6);
    }

    @Test
    void linearFit() {
        LinearFit line = LinearFit.of(new double[] {1, 2, 3, 4}, new double[] {5, 7, 9, 11});
        assertEquals(2, line.slope(), 1e-12);
        assertEquals(3, line.intercept(), 1e-12);
        assertEquals(1, line.r2(), 1e-12);
        assertEquals(0, line.maxResidual(), 1e-12);
        LinearFit curve = LinearFit.of(new double[] {1, 2, 3, 4}, new double[] {1, 4, 9, 16});
        assertTrue(curve.r2() < 0.97 && curve.r2() > 0.9, "r2 " + curve.r2());
        assertEquals(1.0, curve.maxResidual(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> LinearFit.of(new double[] {1}, new double[0]));
    }

    @Test
    void configsAreValidated() {
        assertEquals(16, Config.FULL.placements());
        assertEquals(16, Config.QUICK.placements());
        assertThrows(IllegalArgumentException.class, () -> new Config(0, new long[] {1, 2}, new int[] {2, 3}));
        assertThrows(IllegalArgumentException.class, () -> new Config(1, new long[] {1}, new int[] {2, 3}));
        assertThrows(IllegalArgumentException.class, () -> new Config(1, new long[] {1, 2}, new int[] {2, 257}));
        assertEquals("OPT-mesh", MeshFigureSweep.displayName("opt-mesh"));
        assertEquals("U-mesh", MeshFigureSweep.displayName("u-mesh"));
    }

    @Test
    void chartsAndCsv(@TempDir Path dir) throws Exception {
        for (Fig fig : Fig.values()) {
            Path png = dir.resolve(fig.id() + ".png");
            tiny.chart(fig).writePng(png);
            PictureChecks.assertNonTrivialPng(png, 800, 500, 4);
        }
        Path csv = dir.resolve("mesh-figures.csv");
        tiny.writeCsv(csv);
        List<String> lines = Files.readAllLines(csv);
        assertEquals(1 + tiny.points().size(), lines.size());
        assertTrue(lines.get(0).startsWith("figure,algorithm,group,bytes,mean_time"));
        assertTrue(lines.contains(String.format(java.util.Locale.ROOT, "fig11,u-mesh,32,4096,%.1f,%.1f,%.1f,0.00,0",
                tiny.at(Fig.FIG11, "u-mesh", 4).mean(), tiny.at(Fig.FIG11, "u-mesh", 4).min(),
                tiny.at(Fig.FIG11, "u-mesh", 4).max())), lines.toString());
    }
}
