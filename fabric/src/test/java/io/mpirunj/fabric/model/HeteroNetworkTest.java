package io.mpirunj.fabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeteroNetworkTest {

    @TempDir
    Path dir;

    private static PairCostModel threeNodes() {
        return new PairCostModel(new double[][] {{0, 10, 20}, {11, 0, 30}, {21, 31, 0}},
                new double[][] {{0, 100, 2}, {100, 0, 0.5}, {2, 0.5, 0}});
    }

    @Test
    void matrixFileRoundTripsAndParsesAsAModelSpec() throws IOException {
        Path file = dir.resolve("pairs.json");
        PairMatrixFile.write(file, threeNodes(), "us", "hand-made");
        String text = Files.readString(file);
        assertTrue(text.contains("\"format\" : \"mpirunj-pairs/1\""), text);
        PairCostModel back = PairMatrixFile.read(file);
        assertEquals(3, back.nodes());
        assertEquals(31 + 1000 / 0.5, back.cost(2, 1, 1000));
        assertEquals(11 + 1000 / 100.0, back.cost(1, 0, 1000));
        assertEquals("pairs:" + file, back.toString());
        CostModel parsed = ModelSpec.parse(back.toString());
        assertEquals(back.cost(0, 2, 7), parsed.tEnd(0, 2, 7));
    }

    @Test
    void badMatrixFilesGiveOneLineNamingTheProblem() throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"format\":\"mpirunj-pairs/1\",\"nodes\":2,\"latency\":[[0,1],[1,0]],"
                + "\"bandwidth\":[[0,1]]}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PairMatrixFile.read(file));
        assertEquals("pairs file " + file + ": bandwidth has 1 rows (expected: nodes=2)", e.getMessage());
        Files.writeString(file, "{\"format\":\"mpirunj-pairs/1\",\"nodes\":2,\"latency\":[[0,-1],[1,0]],"
                + "\"bandwidth\":[[0,1],[1,0]]}");
        e = assertThrows(IllegalArgumentException.class, () -> PairMatrixFile.read(file));
        assertEquals("pairs file " + file + ": latency[0][1]=-1.0 (expected: finite, >= 0)", e.getMessage());
        Files.writeString(file, "{\"format\":\"mpirunj-pairs/1\",\"nodes\":2,\"latency\":[[0,1],[1,0]],"
                + "\"bandwith\":[[0,1],[1,0]]}");
        e = assertThrows(IllegalArgumentException.class, () -> PairMatrixFile.read(file));
        assertTrue(e.getMessage().startsWith("pairs file " + file + ": unknown field \"bandwith\" (expected one of: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("bandwidth") && !e.getMessage().contains("class "), e.getMessage());
        assertTrue(e.getMessage().lines().count() == 1, e.getMessage());
        Files.writeString(file, "{\"format\":\"other\",\"nodes\":1,\"latency\":[[0]],\"bandwidth\":[[0]]}");
        e = assertThrows(IllegalArgumentException.class, () -> PairMatrixFile.read(file));
        assertEquals("pairs file " + file + ": format=other (expected: mpirunj-pairs/1)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PairMatrixFile.read(dir.resolve("none.json")));
        assertEquals("pairs file " + dir.resolve("none.json") + ": no such file", e.getMessage());
    }

    @Test
    void paperClustersDrawSymmetricLinksFromTheirRanges() {
        PairCostModel m = HeteroSpec.parse("paper").real(100, new Random(1), "t");
        ClusterNetwork p = ClusterNetwork.PAPER;
        for (int a = 0; a < 100; a++) {
            for (int b = 0; b < 100; b++) {
                if (a == b) {
                    continue;
                }
                assertEquals(m.latency(a, b), m.latency(b, a));
                assertEquals(m.bandwidth(a, b), m.bandwidth(b, a));
                boolean intra = a / 25 == b / 25;
                ClusterNetwork.Range bw = intra ? p.intraBandwidth() : p.interBandwidth();
                assertTrue(m.bandwidth(a, b) >= bw.low() && m.bandwidth(a, b) <= bw.high(), a + "," + b);
                assertTrue(m.latency(a, b) >= 10 && m.latency(a, b) <= 1000);
            }
        }
        // the same seed gives the same network
        assertEquals(m.cost(3, 77, 1), HeteroSpec.parse("paper").real(100, new Random(1), "t").cost(3, 77, 1));
    }

    @Test
    void clusterSpecsParseAndBadOnesAreRefused() {
        HeteroSpec s = HeteroSpec.parse("clusters:2,inter-lat=1000-20000,intra-bw=50");
        PairCostModel m = s.real(4, new Random(3), "x");
        assertEquals(50, m.bandwidth(0, 1));
        assertTrue(m.latency(0, 2) >= 1000);
        assertEquals("hetero spec 'clusters:x' : clusters 'x' (expected: a whole number >= 1 after clusters:)"
                .replace("' :", "':"), assertThrows(IllegalArgumentException.class,
                        () -> HeteroSpec.parse("clusters:x")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> HeteroSpec.parse("clusters:2,inter-bw=5-1"));
        assertThrows(IllegalArgumentException.class, () -> HeteroSpec.parse("clusters:2,foo=1"));
        assertThrows(IllegalArgumentException.class, () -> HeteroSpec.parse("grid"));
    }

    @Test
    void predictionScalesEachLinkCostByOnePlusSigmaZAndNeverBelowTheFloor() {
        PairCostModel real = threeNodes();
        double[][] z = {{0, 1, -3}, {1, 0, 0.5}, {-3, 0.5, 0}};
        assertEquals(0.5 * real.cost(0, 2, 1000), PredictionError.predict(real, 0, 0.5, z).cost(0, 2, 1000), 1e-9);
        z[0][2] = -2;
        z[2][0] = -2;
        PairCostModel m1 = PredictionError.predict(real, 0, 0.5, z);
        assertEquals(1.5 * real.cost(0, 1, 1000), m1.cost(0, 1, 1000), 1e-9);
        assertEquals(1.5 * real.cost(1, 0, 1000), m1.cost(1, 0, 1000), 1e-9);
        assertEquals(1.25 * real.cost(2, 1, 1000), m1.cost(2, 1, 1000), 1e-9);
        assertEquals(PredictionError.MIN_FACTOR * real.cost(0, 2, 1000), m1.cost(0, 2, 1000), 1e-9);
        assertEquals(real.cost(0, 2, 5), PredictionError.predict(real, 0, 0, z).cost(0, 2, 5), 1e-12);
    }

    @Test
    void selectRenumbersNodes() {
        PairCostModel sub = threeNodes().select(new int[] {2, 0});
        assertEquals(21, sub.latency(0, 1));
        assertEquals(20, sub.latency(1, 0));
        assertEquals("pair:nodes=3@[2,0]", sub.toString());
    }
}
