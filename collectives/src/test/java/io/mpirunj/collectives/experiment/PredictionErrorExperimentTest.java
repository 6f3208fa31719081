package io.mpirunj.collectives.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.fabric.model.HeteroSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PredictionErrorExperimentTest {

    private static PredictionErrorExperiment.Config paper(int nodes, int reps, double... sigmas) {
        return new PredictionErrorExperiment.Config(HeteroSpec.parse("paper"), List.of("ecef", "ttcc"), sigmas, reps,
                nodes, 0, 1_000_000, 0, PredictionErrorExperiment.ALPHA_FRACTION_DEFAULT, 1);
    }

    private static PredictionErrorExperiment.Result find(List<PredictionErrorExperiment.Result> rs, String a, double s) {
        return rs.stream().filter(r -> r.algorithm().equals(a) && r.sigma() == s).findFirst().orElseThrow();
    }

    /** Paper 003's figure 10/11 shape, at 40 nodes and 30 repetitions (seconds, not the paper's minutes). */
    @Test
    @Timeout(120)
    void ttccDegradesFarMoreSlowlyThanEcefAsThePredictionGetsWorse() {
        List<Integer> progress = new ArrayList<>();
        List<PredictionErrorExperiment.Result> rs = PredictionErrorExperiment.run(paper(40, 30, 0, 0.2, 0.4), progress::add);
        assertEquals(30, progress.size());
        assertEquals(30, progress.get(29));
        var ecef0 = find(rs, "ecef", 0);
        var ttcc0 = find(rs, "ttcc", 0);
        assertEquals(0, ecef0.delayRatio());
        assertEquals(0, ttcc0.delayRatio());
        // exact information: ECEF slightly better (TTCC pays α), within 5 %
        assertTrue(ttcc0.meanCompletion() >= ecef0.meanCompletion(), rs::toString);
        assertTrue(ttcc0.meanCompletion() <= 1.05 * ecef0.meanCompletion(), rs::toString);
        // delay ratios grow with σ, ECEF's much faster
        var ecef4 = find(rs, "ecef", 0.4);
        var ttcc4 = find(rs, "ttcc", 0.4);
        assertTrue(find(rs, "ecef", 0.2).delayRatio() > 0 && ecef4.delayRatio() > find(rs, "ecef", 0.2).delayRatio(),
                rs::toString);
        assertTrue(find(rs, "ttcc", 0.2).delayRatio() > 0 && ttcc4.delayRatio() > find(rs, "ttcc", 0.2).delayRatio(),
                rs::toString);
        assertTrue(ecef4.delayRatio() > 1.5 * ttcc4.delayRatio(), rs::toString);
        assertTrue(ttcc4.meanCompletion() < ecef4.meanCompletion(), rs::toString);
        // the same seed, the same numbers
        assertEquals(rs, PredictionErrorExperiment.run(paper(40, 30, 0, 0.2, 0.4), i -> { }));
    }

    @Test
    void sigmaRangesHaveNoDecimalDrift() {
        double[] s = PredictionErrorExperiment.sigmas("0:0.5:0.05");
        assertEquals(11, s.length);
        assertEquals(0.3, s[6]);
        assertEquals(0.5, s[10]);
        assertArrayEquals(new double[] {0, 0.3, 0.4}, PredictionErrorExperiment.sigmas("0, 0.3,0.4"));
        assertArrayEquals(new double[] {0.25}, PredictionErrorExperiment.sigmas("0.25"));
        for (String bad : new String[] {"", "0:0.5", "0.5:0:0.1", "0:1:0", "-0.1", "a,b", "0:1:0.00001"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PredictionErrorExperiment.sigmas(bad), bad);
            assertTrue(e.getMessage().startsWith("sigma '" + bad + "' (expected: FROM:TO:STEP"), e.getMessage());
        }
    }

    @Test
    void badConfigurationsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> paper(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> paper(4, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> paper(4, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PredictionErrorExperiment.Config(HeteroSpec.parse("paper"), List.of("ecf"), new double[] {0},
                        1, 4, 0, 1, 0, 0.01, 1));
        assertTrue(e.getMessage().startsWith("unknown multicast algorithm 'ecf'"), e.getMessage());
    }
}
