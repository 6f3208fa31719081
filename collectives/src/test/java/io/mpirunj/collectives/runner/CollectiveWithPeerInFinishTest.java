package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.testing.LocalCluster;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Collectives beside a rank in Mpi.finish (ranks as threads): one it never called fails on the others instead of
 * waiting for ever, and one it has done its part of still completes everywhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CollectiveWithPeerInFinishTest {
    /** A barrier rank 1 never calls: the others fail where they waited, naming a rank in Mpi.finish. */
    @Test
    void aCollectiveARankInFinishNeverCalledFailsOnTheOthers() {
        LocalCluster.run(3, world -> {
            if (world.rank() != 1) {
                MpiException e = assertThrows(MpiException.class, world::barrier);
                assertTrue(e.getMessage().startsWith("rank " + world.rank() + ": a collective call waits for a message"
                        + " from rank "), e.getMessage());
                assertTrue(e.getMessage().contains("that can never come: "), e.getMessage());
                assertTrue(e.getMessage().contains(" in Mpi.finish and every message it sent to rank " + world.rank()
                        + " has arrived (a collective it never made?"), e.getMessage());
                Mpi.finish();
            } else {
                // what the others' barrier sent it is reported by the finish check of unmatched collectives
                MpiException e = assertThrows(MpiException.class, Mpi::finish);
                assertTrue(e.getMessage().contains("received by none of rank 1's collectives"), e.getMessage());
            }
        });
    }

    /**
     * The root of a broadcast calls Mpi.finish once its sends are done: the ranks still receiving from relays are
     * not failed (their receives name the relays, not the root).
     */
    @Test
    void aBroadcastWhoseRootFinishedFirstStillCompletes() {
        LocalCluster.run(8, world -> {
            for (int round = 0; round < 20; round++) {
                byte[] data = new byte[1 << 16];
                if (world.rank() == 0) {
                    Arrays.fill(data, (byte) round);
                }
                world.bcast(Buffer.of(data), 0);
                byte[] expected = new byte[data.length];
                Arrays.fill(expected, (byte) round);
                assertArrayEquals(expected, data, "round " + round);
            }
            Mpi.finish(); // the root first, as it has nothing to wait for
        });
    }
}
