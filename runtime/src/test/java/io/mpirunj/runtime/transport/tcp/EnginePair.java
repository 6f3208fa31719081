package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.runtime.NanoClock;
import io.mpirunj.runtime.p2p.Group;
import io.mpirunj.runtime.p2p.P2pEngine;
import io.mpirunj.runtime.p2p.WaitPolicy;
import io.mpirunj.runtime.transport.FrameSink;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;

/** Ranks 0 and 1 of a test: a point-to-point engine each, over real TCP transports on loopback. */
final class EnginePair implements AutoCloseable {
    /** The two ranks' group. */
    static final Group WORLD = Group.world(2);
    /** An eager limit and credit for the tests of large eager messages: 64 KiB, 4 MiB (half of it streamed eager). */
    static final int EAGER_LIMIT = 64 * 1024;
    static final int CREDIT = 4 << 20;

    final TcpTransport a;
    final TcpTransport b;
    final P2pEngine ea;
    final P2pEngine eb;

    /** {@code sinkOfB} may wrap rank 1's engine to watch what reaches it. */
    EnginePair(int eagerLimitBytes, int eagerCreditBytes, UnaryOperator<FrameSink> sinkOfB) {
        this(eagerLimitBytes, eagerCreditBytes, sinkOfB, PooledByteBufAllocator.DEFAULT);
    }

    /** As above, rank 0's sends taking their memory from {@code allocatorOfA}. */
    EnginePair(int eagerLimitBytes, int eagerCreditBytes, UnaryOperator<FrameSink> sinkOfB,
            ByteBufAllocator allocatorOfA) {
        this(eagerLimitBytes, eagerCreditBytes, sinkOfB, allocatorOfA, TcpConfig.defaults());
    }

    /** As above, both transports configured by {@code config} (e.g. NIO instead of epoll). */
    EnginePair(int eagerLimitBytes, int eagerCreditBytes, UnaryOperator<FrameSink> sinkOfB,
            ByteBufAllocator allocatorOfA, TcpConfig config) {
        a = new TcpTransport(0, 2, TcpTransportTest.TOKEN, config, allocatorOfA);
        b = new TcpTransport(1, 2, TcpTransportTest.TOKEN, config);
        List<InetSocketAddress> table = List.of(a.advertisedAddress(), b.advertisedAddress());
        a.setPeerAddresses(table);
        b.setPeerAddresses(table);
        WaitPolicy waiting = WaitPolicy.of(NanoClock.SYSTEM, 2_000, 2, 2);
        ea = new P2pEngine(0, 2, a, eagerLimitBytes, eagerCreditBytes, waiting);
        eb = new P2pEngine(1, 2, b, eagerLimitBytes, eagerCreditBytes, waiting);
        a.start(ea);
        b.start(sinkOfB.apply(eb));
    }

    @Override
    public void close() {
        ea.close();
        eb.close();
        a.close();
        b.close();
    }

    /** {@code bytes} random bytes, the same for the same seed. */
    static byte[] random(int bytes, long seed) {
        byte[] data = new byte[bytes];
        new Random(seed).nextBytes(data);
        return data;
    }
}
