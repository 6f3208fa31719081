package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every OSU-style program, run on ranks as threads with few iterations: OSU's exact header lines,
 * rows in OSU's fixed-width layout, sizes the powers of two of {@code -m}, values positive and finite.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OsuProgramsTest {
    private static final String[] FEW = {"-i", "4", "-x", "1"};

    private static String[] args(String... more) {
        List<String> a = new ArrayList<>(Arrays.asList(more));
        a.addAll(Arrays.asList(FEW));
        if (!a.contains("--jit-warmup")) {
            a.addAll(List.of("--jit-warmup", "8"));
        }
        return a.toArray(String[]::new);
    }

    @ParameterizedTest
    @EnumSource(OsuBenchmark.class)
    void printsOsusLayout(OsuBenchmark b) {
        int np = b.pointToPoint() ? 2 : 4;
        for (boolean full : new boolean[] {false, true}) {
            List<String> a = new ArrayList<>();
            if (b.hasSizes()) {
                a.addAll(List.of("-m", b == OsuBenchmark.ALLREDUCE ? "4:64" : "1:64"));
            }
            if (full) {
                a.add("-f");
            } else {
                // one warm-up per benchmark: its idle wait may take seconds on a loaded machine
                a.addAll(List.of("--jit-warmup", "0"));
            }
            String out = OsuOutputChecks.run(b, np, null, args(a.toArray(String[]::new)));
            String[] lines = out.split("\\R", -1);
            int at = 0;
            if (!b.pointToPoint()) {
                assertEquals("", lines[at++], "OSU's preamble starts with a blank line:\n" + out);
            }
            assertEquals(OsuTable.title(b), lines[at++], out);
            assertTrue(lines[at++].startsWith("# mpirun-j: np " + np + ", "), out);
            if (b.hasSizes()) {
                assertEquals(OsuTable.datatypeLine(b), lines[at++], out);
            }
            assertEquals(OsuTable.columnHeader(b, full), lines[at++], out);
            List<String> rows = OsuOutputChecks.rows(out);
            List<Long> sizes = new ArrayList<>();
            for (String row : rows) {
                double[] v = OsuOutputChecks.assertRow(b, row, OsuOutputChecks.widths(b, full));
                if (b.hasSizes()) {
                    sizes.add((long) v[0]);
                }
                if (full && b.kind() != OsuBenchmark.Kind.BANDWIDTH) {
                    int first = b.hasSizes() ? 1 : 0;
                    assertEquals(4, (long) v[first + 3], "iterations column: " + row);
                    assertTrue(v[first + 1] <= v[first] + 0.011 && v[first] <= v[first + 2] + 0.011,
                            "min <= avg <= max: " + row);
                    assertTrue(v[first + 3 + 1] <= v[first + 3 + 2] + 0.011, "p50 <= p99: " + row);
                }
            }
            if (b.hasSizes()) {
                List<Long> expected = b == OsuBenchmark.ALLREDUCE ? List.of(4L, 8L, 16L, 32L, 64L)
                        : List.of(1L, 2L, 4L, 8L, 16L, 32L, 64L);
                assertEquals(expected, sizes, out);
            } else {
                assertEquals(1, rows.size(), out);
            }
            assertEquals(lines.length, at + rows.size() + 1, "nothing else is printed:\n" + out);
        }
    }

    @Test
    void latencyStartsAtZeroBytes() {
        String out = OsuOutputChecks.run(OsuBenchmark.LATENCY, 2, null, args("-m", "0:2"));
        List<String> rows = OsuOutputChecks.rows(out);
        assertEquals(3, rows.size(), out);
        assertTrue(rows.get(0).startsWith("0         "), out);
    }

    @Test
    void forcedAlgorithmIsNamedInTheConditionsLine() {
        String out = OsuOutputChecks.run(OsuBenchmark.BCAST, 3, "bcast=linear-p2p", args("-m", "1:4"));
        assertTrue(out.contains(", bcast=linear-p2p;"), out);
        out = OsuOutputChecks.run(OsuBenchmark.MULTICAST, 5, null, args("-m", "1:4", "-g", "2"));
        assertTrue(out.contains("group: 2 ranks [1, 3]"), out);
        assertEquals(3, OsuOutputChecks.rows(out).size(), out);
    }

    @Test
    void pointToPointNeedsExactlyTwoRanks() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> OsuOutputChecks.run(OsuBenchmark.LATENCY, 3, null, args("-m", "1:4")));
        assertTrue(String.valueOf(e.getCause()).contains("osu_latency: this test requires exactly two processes (got np 3)"),
                String.valueOf(e.getCause()));
    }

    @Test
    void multicastGroupsSpreadOverTheRanks() {
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7), Arrays.stream(OsuMulticast.group(8, null)).boxed().toList());
        assertEquals(List.of(1, 4), Arrays.stream(OsuMulticast.group(7, 2)).boxed().toList());
        assertThrows(OsuOptions.UsageException.class, () -> OsuMulticast.group(4, 4));
    }
}
