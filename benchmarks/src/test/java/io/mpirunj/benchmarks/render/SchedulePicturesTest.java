package io.mpirunj.benchmarks.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SchedulePicturesTest {

    private static final CostModel TABLE1 = ModelSpec.parse("hold=20,end=55");
    private static final CostModel SEVEN = ModelSpec.parse("hold=10,end=40");

    @TempDir
    Path dir;

    private static Simulation optTree9() {
        return Simulator.event(MulticastAlgorithms.multicast("opt-tree", 9, 0, 0, TABLE1), TABLE1);
    }

    @Test
    void treeOfTable1OptTreeIsAReadableDrawing() throws Exception {
        Picture tree = SchedulePictures.tree(optTree9());
        Path png = tree.writePng(dir.resolve("tree.png"));
        PictureChecks.assertNonTrivialPng(png, 500, 350, 6);
        String svg = PictureChecks.assertSvg(tree.writeSvg(dir.resolve("tree.svg")));
        for (int r = 0; r < 9; r++) {
            assertTrue(svg.contains(">" + r + "</text>"), "rank label " + r + " missing");
        }
        // Edge labels: the root's first send (to the leader of i - j_9 = 3 nodes) ends at t_end.
        assertTrue(svg.contains("0 → 55"), "edge time label missing");
        assertTrue(svg.contains("#1 · step 1"), "send order / step label missing");
        assertTrue(svg.contains("completion 135"), "completion missing from the subtitle");
    }

    @Test
    void treeNodeLabelsAppearBesideNodes() throws Exception {
        Picture tree = SchedulePictures.tree(optTree9(), r -> "(" + r + ",7)");
        String svg = tree.toSvg();
        assertTrue(svg.contains("(4,7)"));
    }

    @Test
    void timingDiagramShowsPhasesLegendAndCompletion() throws Exception {
        Picture timing = SchedulePictures.timing(optTree9());
        BufferedImage image = PictureChecks.assertNonTrivialPng(timing.writePng(dir.resolve("timing.png")), 800, 300, 6);
        assertTrue(PictureChecks.hasColour(image, 0x1F77B4, 6), "no send bars");
        assertTrue(PictureChecks.hasColour(image, 0x2CA02C, 6), "no receive bars");
        String svg = PictureChecks.assertSvg(timing.writeSvg(dir.resolve("timing.svg")));
        for (String expected : new String[] {"send: sender busy (t_hold)", "in flight: network",
                "receive: receiver busy (t_hold), ends at delivery", "completion 135", "rank 8", "event evaluation"}) {
            assertTrue(svg.contains(expected), "missing: " + expected);
        }
    }

    @Test
    void roundsTimingDiagramMarksRounds() throws Exception {
        Schedule binomial = MulticastAlgorithms.multicast("binomial", 7, 0, 0, SEVEN);
        Simulation rounds = Simulator.simulate(binomial, SEVEN, Evaluation.ROUNDS);
        String svg = SchedulePictures.timing(rounds).toSvg();
        assertTrue(svg.contains("completion 120"));
        assertTrue(svg.contains("round 3"));
        assertTrue(svg.contains("rounds evaluation"));
    }

    @Test
    void timingUnderLogPUsesOverheadForBusyBars() {
        CostModel logp = ModelSpec.parse("logp:L=6,o=2,g=4");
        Simulation sim = Simulator.event(MulticastAlgorithms.multicast("fibonacci", 8, 0, 0, logp), logp);
        String svg = SchedulePictures.timing(sim).toSvg();
        assertTrue(svg.contains("send: sender busy (o)"));
        assertTrue(svg.contains("completion 24"));
    }

    @Test
    void timingWithoutAModelStillDrawsMessages() throws Exception {
        Picture timing = SchedulePictures.timing(optTree9(), null);
        PictureChecks.assertNonTrivialPng(timing.writePng(dir.resolve("bare.png")), 800, 300, 4);
    }

    static java.util.List<String> algorithms() {
        return MulticastAlgorithms.names();
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void everyRegisteredAlgorithmRendersAtSeveralSizes(String name) throws Exception {
        for (int k : new int[] {1, 2, 17}) {
            for (long bytes : new long[] {0, 1 << 20}) {
                CostModel model = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
                Schedule s = MulticastAlgorithms.bcast(name, k, k / 2, bytes, model);
                Simulation sim = Simulator.event(s, model);
                Picture tree = SchedulePictures.tree(sim);
                Picture timing = SchedulePictures.timing(sim);
                tree.toImage();
                timing.toImage();
            }
        }
    }

    @Test
    void segmentedEdgesCountTheirMessages() {
        CostModel model = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
        Schedule s = MulticastAlgorithms.multicast("chain-pipelined", 4, 0, 1 << 20, model);
        Simulation sim = Simulator.event(s, model);
        int perEdge = sim.messages().size() / 3;
        assertTrue(perEdge > 1, () -> sim.messages().size() + " messages on 3 edges");
        assertTrue(SchedulePictures.tree(sim).toSvg().contains(perEdge + " msgs"));
    }

    @Test
    void treeRefusesAllToAll() {
        Schedule a2a = Schedule.builder(Collective.ALLTOALL, "hand", 2, -1, 8)
                .send(0, 1, 1, java.util.List.of(new io.mpirunj.collectives.schedule.Block.Pair(0, 1)))
                .recv(0, 1, 1, java.util.List.of(new io.mpirunj.collectives.schedule.Block.Pair(1, 0)))
                .send(1, 0, 1, java.util.List.of(new io.mpirunj.collectives.schedule.Block.Pair(1, 0)))
                .recv(1, 0, 1, java.util.List.of(new io.mpirunj.collectives.schedule.Block.Pair(0, 1)))
                .build();
        Simulation sim = Simulator.event(a2a, TABLE1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SchedulePictures.tree(sim));
        assertTrue(e.getMessage().contains("alltoall"), e.getMessage());
        // The timing diagram has no such restriction.
        assertEquals(2, sim.messages().size());
        SchedulePictures.timing(sim).toImage();
    }

    @Test
    void chartRendersEverySeries() throws Exception {
        Picture chart = Charts.line("completion vs k", "k", "time", java.util.List.of(
                new Charts.Series("a", new double[] {1, 2, 3}, new double[] {1, 4, 9}),
                new Charts.Series("b", new double[] {1, 2, 3}, new double[] {2, 3, 4})), 800, 500);
        PictureChecks.assertNonTrivialPng(chart.writePng(dir.resolve("chart.png")), 800, 500, 4);
        String svg = PictureChecks.assertSvg(chart.writeSvg(dir.resolve("chart.svg")), false);
        assertTrue(PictureChecks.count(svg, "<path") > 10, "chart SVG has too few paths");
        assertThrows(IllegalArgumentException.class,
                () -> new Charts.Series("bad", new double[] {1}, new double[] {1, 2}));
    }
}
