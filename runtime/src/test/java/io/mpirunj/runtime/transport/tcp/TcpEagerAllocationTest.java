package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.NanoClock;
import io.mpirunj.runtime.p2p.Group;
import io.mpirunj.runtime.p2p.P2pEngine;
import io.mpirunj.runtime.p2p.WaitPolicy;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Heap allocated per eager message over real TCP in steady state, by every thread of the JVM (the
 * sender, the event loops, the receiver): a guard against regressions on the process-mode hot path.
 */
class TcpEagerAllocationTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anEagerMessageOverTcpAllocatesLittle() {
        // As a rank process's main thread runs (RankMain): with Netty's per-thread pools, since it drives I/O.
        FastThreadLocalThread.runWithFastThreadLocal(TcpEagerAllocationTest::measure);
    }

    private static void measure() {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        TcpTransport a = new TcpTransport(0, 2, TcpTransportTest.TOKEN, TcpConfig.defaults());
        TcpTransport b = new TcpTransport(1, 2, TcpTransportTest.TOKEN, TcpConfig.defaults());
        try {
            List<InetSocketAddress> table = List.of(a.advertisedAddress(), b.advertisedAddress());
            a.setPeerAddresses(table);
            b.setPeerAddresses(table);
            WaitPolicy waiting = WaitPolicy.of(NanoClock.SYSTEM, 2_000, 2, 2);
            P2pEngine ea = new P2pEngine(0, 2, a, 16 * 1024, 4 << 20, waiting);
            P2pEngine eb = new P2pEngine(1, 2, b, 16 * 1024, 4 << 20, waiting);
            a.start(ea);
            b.start(eb);
            Group world = Group.world(2);
            Buffer out = Buffer.of(new byte[1024]);
            Buffer in = Buffer.of(new byte[1024]);
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            int rounds = 20_000;
            long before = 0;
            for (int k = 0; k < 2 * rounds; k++) {
                if (k == rounds) {
                    before = allocated(mx);
                }
                Request r = eb.irecv(in, 0, 0, 1, world);
                ea.isend(out, 1, 0, 1, world);
                r.await();
            }
            long perMessage = (allocated(mx) - before) / rounds;
            System.out.println("eager send+receive over TCP (posted receive), all threads: " + perMessage
                    + " B allocated per message");
            assertTrue(perMessage <= BUDGET, perMessage + " B per message (expected: <= " + BUDGET + ")");
            ea.close();
            eb.close();
        } finally {
            a.close();
            b.close();
            ResourceLeakDetector.setLevel(level);
        }
    }

    private static long allocated(com.sun.management.ThreadMXBean mx) {
        long sum = 0;
        for (long b : mx.getThreadAllocatedBytes(mx.getAllThreadIds())) {
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
    }

    /**
     * Measured 408-454 B per 1 KiB message (542 B before frames without a write listener went out
     * with the void promise): the two requests, both frame headers, the outbound frame, the status,
     * and payload buffer objects Netty's recycler makes anew when they are released on another
     * thread (JFR allocation events).
     */
    static final long BUDGET = 600;
}
