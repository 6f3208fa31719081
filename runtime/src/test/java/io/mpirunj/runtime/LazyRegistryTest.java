package io.mpirunj.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.transport.Transports;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A rank process makes its collective registry at its first collective, not at start-up (and only once). */
@Timeout(30)
class LazyRegistryTest {

    /** A barrier for a one-rank job that counts its calls. */
    private static final class CountingBarrier implements CollectiveAlgorithm.Barrier {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public String description() {
            return "counts its calls";
        }

        @Override
        public Request barrier(CollChannel ch, boolean blocking) {
            calls.incrementAndGet();
            return null;
        }
    }

    @Test
    void registryIsMadeAtTheFirstCollectiveOnly() {
        CountingBarrier barrier = new CountingBarrier();
        AtomicInteger made = new AtomicInteger();
        RuntimeConfig config = RuntimeConfig.defaults();
        RankContext ctx = new RankContext(0, 1, Transports.forThreads(config, 1).create(0, 1), JobControl.SINGLETON,
                config, () -> {
                    made.incrementAndGet();
                    return new CollectiveRegistry(List.of(barrier), null);
                });
        Comm world = ctx.world();
        world.sendrecv(Buffer.of(new int[] {7}), 0, 1, Buffer.of(new int[1]), 0, 1); // point-to-point only
        Comm dup = world.dup(); // agreed by point-to-point messages, not by the pluggable collectives
        assertEquals(0, made.get(), "registry made before any collective");

        dup.barrier();
        world.barrier();
        assertEquals(1, made.get(), "registry made once, at the first collective");
        assertEquals(2, barrier.calls.get());
        ctx.finish();
        assertEquals(1, made.get());
    }
}
