package io.mpirunj.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.AbortedException;
import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpiTestingTest {

    @Test
    void callRanksReturnsEachRanksResult() {
        List<Integer> sums = MpiTesting.callRanks(4, world -> {
            int[] in = {world.rank() + 1};
            int[] out = new int[1];
            world.allreduce(Buffer.of(in), Buffer.of(out), Op.SUM);
            return out[0] * 100 + world.rank();
        });
        assertEquals(List.of(1000, 1001, 1002, 1003), sums);
    }

    @Test
    void codeWrittenLikeAMainMayUseMpiInitAndFinish() {
        List<String> seen = MpiTesting.callRanks(3, world -> {
            Comm same = Mpi.init(new String[0]);
            String s = same.rank() + "/" + same.size() + (same == world ? " same" : " other");
            Mpi.finish();
            return s;
        });
        assertEquals(List.of("0/3 same", "1/3 same", "2/3 same"), seen);
    }

    @Test
    void aFailedAssertionNamesItsRankAndTheOthersDoNotHang() {
        AssertionError e = assertThrows(AssertionError.class, () -> MpiTesting.runRanks(4, world -> {
            if (world.rank() == 2) {
                throw new AssertionError("expected 7 but was 8");
            }
            world.recv(Buffer.of(new int[1]), 2, 0); // rank 2 never sends: this fails once it has failed
        }));
        assertEquals("rank 2 of 4 failed: java.lang.AssertionError: expected 7 but was 8", e.getMessage());
        assertEquals("expected 7 but was 8", e.getCause().getMessage());
    }

    @Test
    void abortFailsEveryRankAndIsReportedByTheRankThatCalledIt() {
        AssertionError e = assertThrows(AssertionError.class, () -> MpiTesting.runRanks(3, world -> {
            if (world.rank() == 1) {
                world.abort(3);
            }
            world.barrier();
        }));
        AbortedException cause = assertInstanceOf(AbortedException.class, e.getCause());
        assertEquals(3, cause.exitCode());
        assertTrue(e.getMessage().startsWith("rank 1 of 3 failed: "), e.getMessage());
    }

    @Test
    void aDeadlockEndsAtTheTimeoutWithWhatEachRankIsDoing() {
        AssertionError e = assertThrows(AssertionError.class, () -> MpiTesting.runRanks(2, Duration.ofMillis(500),
                world -> world.recv(Buffer.of(new int[1]), 1 - world.rank(), 5)));
        assertTrue(e.getMessage().startsWith("the ranks did not finish within PT0.5S:"), e.getMessage());
        assertTrue(e.getMessage().contains("rank 0: ") && e.getMessage().contains("rank 1: "), e.getMessage());
        assertTrue(e.getMessage().contains("recv"), e.getMessage());
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> MpiTesting.runRanks(0, world -> { }));
        assertThrows(IllegalArgumentException.class, () -> MpiTesting.runRanks(2, Duration.ZERO, world -> { }));
    }
}
