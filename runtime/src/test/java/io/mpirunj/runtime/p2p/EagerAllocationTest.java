package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Heap allocated per eager message in steady state (in-JVM, one thread drives both ranks), measured
 * with the JVM's per-thread allocation counter: a guard against regressions on the hot path.
 */
class EagerAllocationTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anEagerSendAndReceiveAllocateLittle() {
        // The suite runs with paranoid leak detection, which records a stack trace per buffer: measure
        // what production allocates.
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            measure();
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    private static void measure() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (LocalJob job = new LocalJob(2, RuntimeConfig.defaults(), (r, c, m) -> { })) {
            Comm a = job.context(0).world();
            Comm b = job.context(1).world();
            Buffer out = Buffer.of(new byte[1024]);
            Buffer in = Buffer.of(new byte[1024]);
            int rounds = 50_000;
            long before = 0;
            for (int k = 0; k < 2 * rounds; k++) {
                if (k == rounds) {
                    before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
                }
                Request r = b.irecv(in, 0, 1);
                a.isend(out, 1, 1);
                r.await();
            }
            long perMessage = (mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / rounds;
            System.out.println("eager send+receive (posted receive): " + perMessage + " B allocated per message");
            assertTrue(perMessage <= BUDGET, perMessage + " B per message (expected: <= " + BUDGET + ")");
        }
    }

    /**
     * Measured 304-326 B per message (send and receive requests, the frame header, Netty's pool
     * bookkeeping); 481 B before statuses were built lazily and byte[] copies skipped their NIO views.
     */
    static final long BUDGET = 400;
}
