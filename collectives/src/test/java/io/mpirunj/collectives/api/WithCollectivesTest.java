package io.mpirunj.collectives.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.testing.LocalCluster;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Choosing collective algorithms through the API: {@link Comm#withCollectives(String)}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WithCollectivesTest {
    @Test
    void aViewUsesItsOwnAlgorithmsAndLeavesTheCommunicatorAlone() {
        LocalCluster.run(5, world -> {
            Comm fast = world.withCollectives("bcast=opt-tree, multicast=fibonacci");
            assertEquals("opt-tree", CollChannel.of(fast).registry().chosenName(CollectiveOp.BCAST));
            assertEquals("fibonacci", CollChannel.of(fast).registry().chosenName(CollectiveOp.MULTICAST));
            assertEquals("binomial-p2p", CollChannel.of(world).registry().chosenName(CollectiveOp.BCAST));
            // Unforced operations keep the communicator's choice.
            assertEquals(CollChannel.of(world).registry().chosenName(CollectiveOp.ALLTOALL),
                    CollChannel.of(fast).registry().chosenName(CollectiveOp.ALLTOALL));
            assertEquals(world.rank(), fast.rank());
            assertEquals(world.size(), fast.size());

            int[] data = new int[1000];
            if (world.rank() == 2) {
                Arrays.setAll(data, i -> i * 7);
            }
            fast.bcast(Buffer.of(data), 2);
            int[] expected = new int[1000];
            Arrays.setAll(expected, i -> i * 7);
            assertArrayEquals(expected, data);
            // Interleaved with the communicator's own collectives, in order.
            int[] x = {world.rank() == 0 ? 42 : 0};
            world.bcast(Buffer.of(x), 0);
            fast.bcast(Buffer.of(x), 0);
            assertEquals(42, x[0]);
        });
    }

    @Test
    void badChoicesFailWithTheValidNames() {
        LocalCluster.run(1, world -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.withCollectives("bcast=nope"));
            assertTrue(e.getMessage().contains("unknown bcast algorithm 'nope'") && e.getMessage().contains("opt-tree"),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> world.withCollectives("bcast"));
            assertThrows(IllegalArgumentException.class, () -> world.withCollectives("frobnicate=x"));
        });
    }
}
