package io.mpirunj.collectives.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.MpiException;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Collective calls that do not match across the ranks (a different root, a collective one rank skips) can complete
 * with another call's data, as in any MPI; what a collective sent and no collective received is still queued at
 * {@code Mpi.finish}, which then fails the rank instead of letting the job succeed with wrong data.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MismatchedCollectivesTest {
    @Test
    void aCollectiveOneRankSkippedFailsThatRanksFinish() {
        int[] got = new int[1];
        AssertionError e = assertThrows(AssertionError.class, () -> LocalCluster.run(2, world -> {
            int[] second = {world.rank() == 0 ? 2 : 0};
            if (world.rank() == 0) {
                world.bcast(Buffer.of(new int[] {1}), 0);
            }
            world.bcast(Buffer.of(second), 0);
            if (world.rank() == 1) {
                got[0] = second[0];
            }
        }));
        assertEquals(1, got[0], "rank 1's bcast received the first call's data (the mismatch itself)");
        assertEquals("rank 1: Mpi.finish: 1 message (4 bytes) that collectives of rank 0 sent to rank 1 on the world"
                + " communicator was received by none of rank 1's collectives: the ranks' collective calls did not"
                + " match (a different root, count or operation, or a collective not every rank called, as when"
                + " Mpi.finish in a finally block is reached while an exception passes through it), so a collective on"
                + " rank 1 may have received another call's data", rootCause(e).getMessage());
    }

    @Test
    void differentRootsFailTheFinish() {
        AssertionError e = assertThrows(AssertionError.class, () -> LocalCluster.run(2, world -> {
            world.bcast(Buffer.of(new long[] {world.rank()}), world.rank()); // each rank names itself the root
        }));
        assertTrue(rootCause(e).getMessage().matches("rank [01]: Mpi\\.finish: 1 message \\(8 bytes\\) that"
                + " collectives of rank [01] sent to rank [01] on the world communicator was received by none .*"),
                rootCause(e).getMessage());
    }

    @Test
    void matchedCollectivesOnSeveralCommunicatorsFinishCleanly() {
        LocalCluster.run(4, world -> {
            var half = world.split(world.rank() % 2, world.rank());
            int[] v = {world.rank()};
            half.bcast(Buffer.of(v), 1);
            assertEquals(world.rank() % 2 + 2, v[0]);
            int[] sum = new int[1];
            world.allreduce(Buffer.of(new int[] {1}), Buffer.of(sum), io.mpirunj.Op.SUM);
            assertEquals(4, sum[0]);
            half.ibarrier().await();
            half.close();
        });
    }

    /** {@code --check-collectives}: calls that differ fail before any data moves, every rank naming every call. */
    @Test
    void checkedCallsWithDifferentRootsFailOnEveryRankNamingEachCall() {
        RuntimeConfig checked = RuntimeConfig.defaults().withCollectivesChecked(true);
        java.util.Set<String> lines = java.util.concurrent.ConcurrentHashMap.newKeySet();
        LocalCluster.run(3, checked, world -> {
            int[] v = {world.rank()};
            MpiException e = assertThrows(MpiException.class, () -> world.bcast(Buffer.of(v), world.rank() / 2));
            lines.add(e.getMessage().replaceFirst("^rank \\d+: ", "rank R: "));
            assertEquals(world.rank(), v[0], "nothing was received");
        });
        assertEquals(java.util.Set.of("rank R: the ranks' collective calls do not match (--check-collectives): call 1"
                + " on the world communicator is bcast(root 0, 4 bytes) on ranks 0, 1; bcast(root 1, 4 bytes) on"
                + " rank 2"), lines);
    }

    @Test
    void aCheckedSkippedCallFailsAtTheNextCallThatDiffers() {
        RuntimeConfig checked = RuntimeConfig.defaults().withCollectivesChecked(true);
        AssertionError e = assertThrows(AssertionError.class, () -> LocalCluster.run(2, checked, world -> {
            if (world.rank() == 0) {
                world.bcast(Buffer.of(new int[] {1}), 0);
            }
            world.bcast(Buffer.of(new int[2]), 0);
        }));
        assertTrue(rootCause(e).getMessage().matches("rank [01]: the ranks' collective calls do not match"
                + " \\(--check-collectives\\): call 1 on the world communicator is bcast\\(root 0, 4 bytes\\) on"
                + " rank 0; bcast\\(root 0, 8 bytes\\) on rank 1"), rootCause(e).getMessage());
    }

    @Test
    void checkedMatchingCallsRunAsUnchecked() {
        RuntimeConfig checked = RuntimeConfig.defaults().withCollectivesChecked(true);
        LocalCluster.run(4, checked, world -> {
            var half = world.split(world.rank() % 2, world.rank());
            int[] v = {world.rank()};
            half.ibcast(Buffer.of(v), 1).await();
            assertEquals(world.rank() % 2 + 2, v[0]);
            int[] sum = new int[1];
            world.allreduce(Buffer.of(new int[] {1}), Buffer.of(sum), io.mpirunj.Op.SUM);
            assertEquals(4, sum[0]);
            int[] all = new int[4];
            world.allgather(Buffer.of(new int[] {world.rank()}), Buffer.of(all));
            assertArrayEquals(new int[] {0, 1, 2, 3}, all);
            if (world.rank() < 2) { // a multicast is called by its root and group only: not checked
                world.multicast(Buffer.of(v), 0, 1);
            }
            world.barrier();
            half.close();
        });
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
