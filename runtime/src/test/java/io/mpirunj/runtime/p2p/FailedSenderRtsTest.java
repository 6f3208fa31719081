package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receive posted after its sender's failure notice, matching the RTS that sender sent before it
 * died, fails with the sender named: the notice fails only what is pending when it comes, and the
 * dead sender will never answer the CTS (this hung a rank in the midway-death collective tests).
 */
class FailedSenderRtsTest {
    private static final int DATA_TAG = 1;
    private static final int NEVER_TAG = 2;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReceiveMatchingADeadSendersRtsFails() {
        AssertionError outcome = assertThrows(AssertionError.class, () -> LocalCluster.run(2,
                RuntimeConfig.defaults().withEagerLimit(0), Duration.ofSeconds(30), world -> {
                    if (world.rank() == 1) {
                        world.isend(Buffer.of(new int[1024]), 0, DATA_TAG); // an RTS, never answered
                        throw new IllegalStateException("sender dies after its RTS");
                    }
                    world.probe(1, DATA_TAG); // the RTS is here, unmatched
                    // a receive pending when the notice comes fails: after this, rank 1 is known dead
                    RankFailedException noticed = assertThrows(RankFailedException.class,
                            () -> world.irecv(Buffer.of(new int[1]), 1, NEVER_TAG).await());
                    assertEquals(1, noticed.failedRank());
                    RankFailedException late = assertThrows(RankFailedException.class,
                            () -> world.irecv(Buffer.of(new int[1024]), 1, DATA_TAG).await());
                    assertEquals(1, late.failedRank());
                }));
        assertTrue(outcome.getMessage().contains("sender dies after its RTS"), outcome.getMessage());
    }
}
