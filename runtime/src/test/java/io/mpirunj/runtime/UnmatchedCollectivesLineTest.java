package io.mpirunj.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.p2p.P2pEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The line {@code Mpi.finish} fails with when collectives left messages unreceived (the live cases are in the
 * collectives module's MismatchedCollectivesTest).
 */
class UnmatchedCollectivesLineTest {
    @Test
    void theLineCountsMessagesBytesSourcesAndCommunicators() {
        List<P2pEngine.Unreceived> several = List.of(new P2pEngine.Unreceived(3, 1, 0, 10),
                new P2pEngine.Unreceived(0, 3, 5, 6));
        String line = RankContext.unmatchedCollectives(2, several);
        assertTrue(line.startsWith("rank 2: Mpi.finish: 2 messages (16 bytes) that collectives of ranks 0, 3 sent"
                + " to rank 2 on the world communicator and others were received by none of rank 2's collectives"),
                line);
        String split = RankContext.unmatchedCollectives(0, List.of(new P2pEngine.Unreceived(1, 5, 0, 0)));
        assertTrue(split.contains(" on a communicator made by split or dup was received "), split);
    }
}
