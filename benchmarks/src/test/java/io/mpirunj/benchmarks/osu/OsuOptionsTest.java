package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import java.util.List;
import org.junit.jupiter.api.Test;

class OsuOptionsTest {

    @Test
    void defaultsAreOsus() {
        OsuOptions bcast = OsuOptions.defaults(OsuBenchmark.BCAST);
        assertEquals(1, bcast.minBytes());
        assertEquals(1 << 20, bcast.maxBytes());
        assertEquals(21, bcast.sizes().size());
        assertEquals(1000, bcast.iterations(8192));
        assertEquals(100, bcast.iterations(16384));
        assertEquals(100, bcast.warmup(1));
        assertEquals(10, bcast.warmup(1 << 20));
        assertFalse(bcast.full());
        OsuOptions lat = OsuOptions.defaults(OsuBenchmark.LATENCY);
        assertEquals(0, lat.sizes().get(0));
        assertEquals(1, lat.sizes().get(1));
        assertEquals(4 << 20, lat.sizes().get(lat.sizes().size() - 1));
        assertEquals(10_000, lat.iterations(1));
        assertEquals(1_000, lat.iterations(1 << 20));
        assertEquals(4, OsuOptions.defaults(OsuBenchmark.ALLREDUCE).sizes().get(0));
        assertEquals(List.of(0), OsuOptions.defaults(OsuBenchmark.BARRIER).sizes());
        assertEquals(64, OsuOptions.defaults(OsuBenchmark.BW).window());
    }

    @Test
    void messageSizesAsOsu() {
        assertEquals(List.of(2, 4, 8, 16), OsuOptions.parse(OsuBenchmark.BCAST, "-m", "2:16").sizes());
        assertEquals(List.of(1, 2, 4), OsuOptions.parse(OsuBenchmark.BCAST, "-m", "4").sizes());
        OsuOptions minOnly = OsuOptions.parse(OsuBenchmark.BCAST, "-m", "1024:");
        assertEquals(1024, minOnly.minBytes());
        assertEquals(1 << 20, minOnly.maxBytes(), "MIN: keeps the default MAX");
        assertEquals(List.of(3, 6, 12), OsuOptions.parse(OsuBenchmark.BCAST, "--message-size=3:12").sizes());
        assertEquals(List.of(1, 2), OsuOptions.parse(OsuBenchmark.BCAST, "-m1:2").sizes());
        assertEquals(List.of(4, 8), OsuOptions.parse(OsuBenchmark.ALLREDUCE, "-m", "1:8").sizes(),
                "sizes below one float are skipped");
        OsuOptions o = OsuOptions.parse(OsuBenchmark.BCAST, "-i", "7", "-x", "3", "-f", "--jit-warmup", "0");
        assertEquals(7, o.iterations(1 << 20));
        assertEquals(3, o.warmup(1));
        assertTrue(o.full());
        assertEquals(0, o.jitWarmupCalls(1));
    }

    @Test
    void compareTakesTwoOrMoreNamesAndBlocksSplitTheIterationsIntoRounds() {
        OsuOptions o = OsuOptions.parse(OsuBenchmark.BCAST, "--compare", "auto, chain,chain", "-m", "1024:65536");
        assertEquals(List.of("auto", "chain", "chain"), o.compare());
        assertEquals(10, o.block(1024), "OSU's 1000 iterations in about 100 rounds");
        assertEquals(100, o.rounds(1024));
        assertEquals(1, o.block(65536), "100 large iterations: one call per block");
        OsuOptions b = OsuOptions.parse(OsuBenchmark.BCAST, "--compare", "a,b", "--block", "7", "-i", "50");
        assertEquals(7, b.block(1));
        assertEquals(8, b.rounds(1), "rounded up: at least the iterations asked for");
        assertEquals(null, OsuOptions.defaults(OsuBenchmark.BCAST).compare());
    }

    @Test
    void badCompareOptionsGetOneLine() {
        assertEquals("osu_bcast: --compare chain (expected: two or more algorithm names, comma-separated, e.g. "
                + "auto,binomial-p2p,chain)", assertThrows(OsuOptions.UsageException.class,
                        () -> OsuOptions.parse(OsuBenchmark.BCAST, "--compare", "chain")).getMessage());
        assertThrows(OsuOptions.UsageException.class, () -> OsuOptions.parse(OsuBenchmark.BCAST, "--compare", "a,,b"));
        assertEquals("osu_bcast: --block needs --compare", assertThrows(OsuOptions.UsageException.class,
                () -> OsuOptions.parse(OsuBenchmark.BCAST, "--block", "3")).getMessage());
        assertEquals("osu_latency: --compare: osu_latency has no algorithms to compare",
                assertThrows(OsuOptions.UsageException.class,
                        () -> OsuOptions.parse(OsuBenchmark.LATENCY, "--compare", "a,b")).getMessage());
        assertThrows(OsuOptions.UsageException.class,
                () -> OsuOptions.parse(OsuBenchmark.BCAST, "--compare", "a,b", "--block", "0"));
    }

    @Test
    void bufferChoosesTheMessagesMemory() {
        Buffer array = OsuOptions.parse(OsuBenchmark.LATENCY, "-m", "8").messageBuffers().apply(4);
        assertEquals(4, array.byteLength());
        assertTrue(array.hasArray());
        Buffer direct = OsuOptions.parse(OsuBenchmark.BW, "--buffer", "direct", "-m", "8").messageBuffers().apply(4);
        assertEquals(4, direct.byteLength());
        assertTrue(direct.byteBuffer().isDirect());
        assertEquals(1, direct.byteBuffer().get(3), "filled with ones, as the array");
        assertEquals("osu_latency: --buffer heap (expected: array or direct)", assertThrows(
                OsuOptions.UsageException.class, () -> OsuOptions.parse(OsuBenchmark.LATENCY, "--buffer", "heap"))
                .getMessage());
        assertEquals("osu_barrier: --buffer is only for osu_latency, osu_bw, osu_bcast, osu_alltoall and osu_allreduce",
                assertThrows(OsuOptions.UsageException.class,
                        () -> OsuOptions.parse(OsuBenchmark.BARRIER, "--buffer", "direct")).getMessage());
        Buffer floats = OsuOptions.parse(OsuBenchmark.ALLREDUCE, "--buffer", "direct", "-m", "16")
                .memory(ElementType.FLOAT, 4).apply(3);
        assertEquals(ElementType.FLOAT, floats.type());
        assertEquals(3, floats.count());
        assertTrue(floats.byteBuffer().isDirect());
        assertEquals(1f, floats.byteBuffer().getFloat(8), "floats of one, in the buffer's own byte order");
        Buffer arrayFloats = OsuOptions.parse(OsuBenchmark.ALLREDUCE, "-m", "16").memory(ElementType.FLOAT, 4).apply(2);
        assertTrue(arrayFloats.hasArray());
        assertEquals(2, arrayFloats.count());
    }

    @Test
    void jitWarmupIsSpreadOverSizes() {
        OsuOptions o = OsuOptions.parse(OsuBenchmark.BCAST, "-m", "8192:16384", "--jit-warmup", "110");
        assertEquals(100, o.jitWarmupCalls(8192));
        assertEquals(10, o.jitWarmupCalls(16384));
    }

    @Test
    void badOptionsGiveOneLineErrors() {
        assertError("osu_bcast: -m 8:2 (expected: MIN <= MAX)", OsuBenchmark.BCAST, "-m", "8:2");
        assertError("osu_bcast: -m x (expected: [MIN:]MAX with sizes in bytes from 0 to 1073741824)",
                OsuBenchmark.BCAST, "-m", "x");
        assertError("osu_bcast: -m 0:8 (expected: MIN >= 1)", OsuBenchmark.BCAST, "-m", "0:8");
        assertError("osu_bcast: -m 1:2:3 (expected: [MIN:]MAX in bytes, e.g. 1:4096, 4096 or 64:)",
                OsuBenchmark.BCAST, "-m", "1:2:3");
        assertError("osu_bcast: -i 0 (expected: a whole number >= 1)", OsuBenchmark.BCAST, "-i", "0");
        assertError("osu_bcast: -x -1 (expected: a whole number >= 0)", OsuBenchmark.BCAST, "-x", "-1");
        assertError("osu_bcast: -i needs a value", OsuBenchmark.BCAST, "-i");
        assertError("osu_barrier: -m: osu_barrier has no message sizes", OsuBenchmark.BARRIER, "-m", "4");
        assertError("osu_bcast: -W is only for osu_bw", OsuBenchmark.BCAST, "-W", "4");
        OsuOptions.UsageException e = assertThrows(OsuOptions.UsageException.class,
                () -> OsuOptions.parse(OsuBenchmark.BCAST, "-q"));
        assertTrue(e.getMessage().startsWith("osu_bcast: unknown option '-q' (expected: -m [MIN:]MAX, -i ITER"),
                e.getMessage());
        assertEquals(0, OsuOptions.parse(OsuBenchmark.LATENCY, "-m", "0:4").minBytes(), "osu_latency starts at 0");
    }

    @Test
    void helpListsTheOptions() {
        assertTrue(OsuOptions.parse(OsuBenchmark.BCAST, "-h").help());
        String help = OsuOptions.help(OsuBenchmark.BCAST);
        for (String opt : List.of("-m, --message-size", "-i, --iterations", "-x, --warmup", "-f, --full",
                "--jit-warmup")) {
            assertTrue(help.contains(opt), opt + " missing from\n" + help);
        }
    }

    private static void assertError(String expected, OsuBenchmark b, String... args) {
        OsuOptions.UsageException e = assertThrows(OsuOptions.UsageException.class, () -> OsuOptions.parse(b, args));
        assertEquals(expected, e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
