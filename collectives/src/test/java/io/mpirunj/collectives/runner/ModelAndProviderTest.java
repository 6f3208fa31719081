package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ModelAndProviderTest {

    @Test
    void theDefaultModelIsTheIbmSpModel() {
        assumeTrue(System.getProperty(ModelProvider.PROP_NAME) == null && System.getenv(ModelProvider.ENV_NAME) == null);
        ModelProvider p = ModelProvider.fromEnvironment();
        assertEquals(ModelSpec.parse("hold=20+0.02m,end=55+0.07m"), p.model());
        assertTrue(p.describe().contains("default"), p.describe());
    }

    @Test
    void theSystemPropertyOverridesAndABadSpecFailsOnUse() {
        String old = System.getProperty(ModelProvider.PROP_NAME);
        try {
            System.setProperty(ModelProvider.PROP_NAME, "logp:L=6,o=2,g=4");
            ModelProvider p = ModelProvider.fromEnvironment();
            assertEquals(ModelSpec.parse("logp:L=6,o=2,g=4"), p.model());
            assertTrue(p.describe().contains(ModelProvider.PROP_NAME), p.describe());

            System.setProperty(ModelProvider.PROP_NAME, "hold=fast");
            ModelProvider bad = ModelProvider.fromEnvironment(); // constructing never fails
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad::model);
            assertTrue(e.getMessage().contains(ModelProvider.PROP_NAME), e.getMessage());
            ScheduleCollectives provider = new ScheduleCollectives(bad, new ScheduleCache());
            assertTrue(provider.algorithms().get(0).description().contains("hold=fast"));
        } finally {
            if (old == null) {
                System.clearProperty(ModelProvider.PROP_NAME);
            } else {
                System.setProperty(ModelProvider.PROP_NAME, old);
            }
        }
    }

    /** Algorithm objects built with their own model and cache, run directly on a channel. */
    @Test
    void aProvidedModelIsUsedAndSchedulesAreCached() {
        ScheduleCache cache = new ScheduleCache();
        ScheduleCollectives provider = new ScheduleCollectives(
                ModelProvider.fixed(ModelSpec.parse("logp:L=6,o=2,g=4"), "test"), cache);
        CollectiveAlgorithm.Bcast fib = null;
        CollectiveAlgorithm.Multicast opt = null;
        for (CollectiveAlgorithm a : provider.algorithms()) {
            if (a.op() == CollectiveOp.BCAST && a.name().equals("fibonacci")) {
                fib = (CollectiveAlgorithm.Bcast) a;
            }
            if (a.op() == CollectiveOp.MULTICAST && a.name().equals("opt-tree")) {
                opt = (CollectiveAlgorithm.Multicast) a;
            }
        }
        assertTrue(fib.description().contains("logp:L=6,o=2,g=4 (test)"), fib.description());
        CollectiveAlgorithm.Bcast bcast = fib;
        CollectiveAlgorithm.Multicast multicast = opt;
        LocalCluster.run(6, RuntimeConfig.defaults(), world -> {
            CollChannel ch = CollChannel.of(world);
            for (int i = 0; i < 5; i++) {
                int root = i % 6;
                int[] data = new int[33];
                if (world.rank() == root) {
                    java.util.Arrays.fill(data, 100 + i);
                }
                bcast.bcast(ch, Buffer.of(data), root, true);
                assertEquals(100 + i, data[32]);
            }
            int[] group = {4, 1, 5};
            if (world.rank() == 2 || world.rank() == 4 || world.rank() == 1 || world.rank() == 5) {
                long[] data = new long[3];
                if (world.rank() == 2) {
                    data[2] = 7;
                }
                multicast.multicast(ch, Buffer.of(data), 2, group, true);
                assertEquals(7, data[2]);
            }
        });
        // One bcast schedule serves every root (the communicator is rotated), one multicast schedule.
        assertEquals(2, cache.misses(), cache.toString());
        assertEquals(2, cache.size());
    }
}
