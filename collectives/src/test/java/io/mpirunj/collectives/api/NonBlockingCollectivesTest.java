package io.mpirunj.collectives.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Non-blocking collectives: they progress while every rank computes, and mix with point-to-point requests. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NonBlockingCollectivesTest {

    private static final int FOUR_MIB = 4 << 20;

    /** Some arithmetic the JIT cannot drop; a rank does this between checks, never calling into MPI. */
    private static long compute(long seed) {
        long x = seed;
        for (int i = 0; i < 10_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    @ParameterizedTest(name = "bcast={0}")
    @ValueSource(strings = {"opt-tree", "binomial-segmented", "linear-p2p"})
    void aFourMibIbcastCompletesWhileEveryRankComputes(String algorithm) {
        LocalCluster.run(5, world -> {
            Comm comm = world.withCollectives("bcast=" + algorithm);
            int root = 2;
            byte[] data = new byte[FOUR_MIB];
            if (comm.rank() == root) {
                for (int i = 0; i < data.length; i++) {
                    data[i] = (byte) (i * 31 + 7);
                }
            }
            Request r = comm.ibcast(Buffer.of(data), root);
            if (!algorithm.endsWith("-p2p")) {
                assertTrue(r instanceof ScheduleRequest, "a schedule-based bcast is progressed by the engine: " + r);
            }
            // Only test() (which never progresses anything itself) until done: the engine's
            // completions, not this thread, must carry the bcast through.
            long chunks = 0;
            long sink = 0;
            while (!r.test()) {
                sink += compute(chunks++);
            }
            r.await();
            for (int i = 0; i < data.length; i += 4093) {
                assertEquals((byte) (i * 31 + 7), data[i], "rank " + comm.rank() + " byte " + i);
            }
            assertEquals((byte) ((data.length - 1) * 31 + 7), data[data.length - 1]);
        });
    }

    @Test
    void waitAllTakesPointToPointAndCollectiveRequestsTogether() {
        int p = 4;
        LocalCluster.run(p, world -> {
            int r = world.rank();
            long[] mine = {r + 1, 10L * (r + 1)};
            long[] sum = new long[2];
            int[] a2aSend = new int[p];
            for (int d = 0; d < p; d++) {
                a2aSend[d] = 100 * r + d;
            }
            int[] a2aRecv = new int[p];
            int[] fromLeft = new int[1];
            long[] reduced = new long[2];
            Request[] all = {
                world.irecv(Buffer.of(fromLeft), (r + p - 1) % p, 5),
                world.iallreduce(Buffer.of(mine), Buffer.of(sum), Op.SUM),
                world.ialltoall(Buffer.of(a2aSend), Buffer.of(a2aRecv)),
                world.isend(Buffer.of(new int[] {r}), (r + 1) % p, 5),
                world.ireduce(Buffer.of(mine), Buffer.of(reduced), Op.MAX, 3),
                world.ibarrier(),
            };
            Request.waitAll(all);
            assertEquals((r + p - 1) % p, fromLeft[0]);
            assertArrayEquals(new long[] {10, 100}, sum);
            for (int o = 0; o < p; o++) {
                assertEquals(100 * o + r, a2aRecv[o]);
            }
            if (r == 3) {
                assertArrayEquals(new long[] {4, 40}, reduced);
            }
            // Blocking and non-blocking collectives interleave on one communicator.
            long[] again = new long[2];
            Request late = world.iallreduce(Buffer.of(mine), Buffer.of(again), Op.SUM);
            world.allreduce(Buffer.of(mine), Buffer.of(sum), Op.MAX);
            late.await();
            assertArrayEquals(new long[] {10, 100}, again);
            assertArrayEquals(new long[] {4, 40}, sum);
        });
    }

    /**
     * Ranks outside an {@code imulticast} group never call it; a later non-blocking collective on the
     * whole communicator (and a second multicast over an overlapping group) must still match up.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void nonBlockingCallsAfterAnImulticastThatSomeRanksSkip() {
        int p = 5;
        LocalCluster.run(p, world -> {
            int r = world.rank();
            int[] first = new int[3];
            if (r == 0 || r == 1 || r == 3) {
                if (r == 0) {
                    first = new int[] {7, 8, 9};
                }
                world.imulticast(Buffer.of(first), 0, 1, 3).await();
                assertArrayEquals(new int[] {7, 8, 9}, first, "rank " + r);
            }
            // Two calls outstanding at once that share ranks 1 and 3: a multicast over another group
            // and a bcast over everybody.
            int[] second = new int[2];
            int[] third = new int[1];
            if (r == 3) {
                second = new int[] {4, 5};
            }
            if (r == 4) {
                third[0] = 42;
            }
            Request multicast = r == 3 || r == 1 || r == 2 ? world.imulticast(Buffer.of(second), 3, 1, 2) : null;
            Request bcast = world.ibcast(Buffer.of(third), 4);
            long[] sum = new long[1];
            Request allreduce = world.iallreduce(Buffer.of(new long[] {r}), Buffer.of(sum), Op.SUM);
            Request.waitAll(multicast == null ? new Request[] {bcast, allreduce} : new Request[] {multicast, bcast, allreduce});
            if (multicast != null) {
                assertArrayEquals(new int[] {4, 5}, second, "rank " + r);
            }
            assertEquals(42, third[0], "rank " + r);
            assertEquals(10, sum[0], "rank " + r);
        });
    }
}
