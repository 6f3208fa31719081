package io.mpirunj.runtime.bootstrap.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlurmHostlistTest {

    @Test
    void expandsRangesListsPaddingAndSuffixes() {
        assertEquals(List.of("vm"), SlurmHostlist.expand("vm"));
        assertEquals(List.of("node01", "node02", "node03", "node07", "gpu5", "r1-ib", "r2-ib"),
                SlurmHostlist.expand("node[01-03,07],gpu5,r[1-2]-ib"));
        assertEquals(List.of("n9", "n10", "n11"), SlurmHostlist.expand("n[9-11]"));
        assertEquals(List.of("a1b1", "a1b2", "a2b1", "a2b2"), SlurmHostlist.expand("a[1-2]b[1-2]"));
    }

    @Test
    void expandsCountsAndPorts() {
        assertEquals(List.of(2, 2, 2, 1), SlurmHostlist.expandCounts("2(x3),1"));
        assertEquals(List.of(8), SlurmHostlist.expandCounts("8"));
        assertEquals(List.of(20000, 20001, 20002, 20010), SlurmHostlist.expandPorts("20000-20002,20010"));
        assertEquals(List.of(), SlurmHostlist.expandPorts(""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "node[1-", "node1-3]", "node[3-1]", "a,,b", "n[x-y]", "n[[1]]"})
    void malformedHostListsSayWhatIsWrong(String list) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand(list));
        assertTrue(e.getMessage().contains("expected"), e.getMessage());
    }

    @Test
    void malformedCountsAndPortsSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expandCounts("2(y3)"))
                .getMessage().contains("2(y3)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expandPorts("70000"))
                .getMessage().contains("1..65535"));
    }
}
