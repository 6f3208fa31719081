package io.mpirunj.runtime.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receive that only ranks in Mpi.finish could match fails once everything they sent has arrived, instead of
 * waiting for ever: a rank that skipped its last calls, or {@code try { ... } finally { Mpi.finish(); }} with an
 * exception on one rank, hung the others (ranks as threads here; collectives: CollectiveWithPeerInFinishTest;
 * rank processes and the launcher's fence: ProcessModeTest).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerInFinishTest {
    @Test
    void aReceiveFromARankInFinishFailsAndWhatItSentBeforeIsStillReceived() {
        LocalCluster.run(2, world -> {
            if (world.rank() == 1) {
                world.send(Buffer.of(new int[] {42}), 0, 5);
                Mpi.finish();
                return;
            }
            MpiException never = assertThrows(MpiException.class, () -> world.recv(Buffer.of(new int[1]), 1, 6));
            assertEquals("rank 0: receive from rank 1 (world 1), tag 6, context 0 can never complete: rank 1 (world) is"
                    + " in Mpi.finish and every message it sent to rank 0 has arrived (a send it never made? or "
                    + "Mpi.finish in a finally block, reached while an exception passed through it?)",
                    never.getMessage());
            MpiException probe = assertThrows(MpiException.class, () -> world.probe(1, 6));
            assertTrue(probe.getMessage().contains("in Mpi.finish"), probe.getMessage());
            int[] got = new int[1];
            world.recv(Buffer.of(got), 1, 5); // sent before its finish: still there
            assertArrayEquals(new int[] {42}, got);
            Mpi.finish();
        });
    }

    /**
     * ANY_SOURCE never fails for the ranks in Mpi.finish: rank 2's message is received after rank 1 is in it, and so
     * is one rank 0 sends itself after both are.
     */
    @Test
    void anAnySourceReceiveStillGetsWhatRunningRanksAndTheRankItselfSend() {
        LocalCluster.run(3, world -> {
            int[] got = new int[1];
            if (world.rank() == 1) {
                Mpi.finish();
            } else if (world.rank() == 2) {
                // fails once rank 1 is in Mpi.finish: only then does rank 2 send
                assertThrows(MpiException.class, () -> world.recv(Buffer.of(got), 1, 4));
                world.send(Buffer.of(new int[] {7}), 0, 9);
                Mpi.finish();
            } else {
                Status s = world.recv(Buffer.of(got), Comm.ANY_SOURCE, 9);
                assertEquals(2, s.source());
                assertEquals(7, got[0]);
                assertThrows(MpiException.class, () -> world.recv(Buffer.of(got), 2, 5)); // rank 2 is in Mpi.finish
                Request r = world.irecv(Buffer.of(got), Comm.ANY_SOURCE, 3);
                world.send(Buffer.of(new int[] {8}), 0, 3);
                assertEquals(0, r.await().source());
                assertEquals(8, got[0]);
                Mpi.finish();
            }
        });
    }
}
