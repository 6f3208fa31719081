package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OsuRunTest {
    @Test
    void aWarmUpPassTakesTheSizesInTurnUntilEachHasHadItsCalls() {
        List<Integer> order = new ArrayList<>();
        OsuRun.interleavedPass(new int[] {2, 0, 3, 1}, order::add);
        assertEquals(List.of(0, 2, 3, 0, 2, 2), order);
    }

    @Test
    void aPassWithNoCallsCallsNothing() {
        List<Integer> order = new ArrayList<>();
        OsuRun.interleavedPass(new int[] {0, 0}, order::add);
        OsuRun.interleavedPass(new int[0], order::add);
        assertEquals(List.of(), order);
    }
}
