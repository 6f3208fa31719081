package io.mpirunj.mpicompat;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A linear bcast that counts its calls: registered for this module's tests only, never chosen unless
 * forced, so a test can see that {@code mpi}'s collectives go through the pluggable algorithms.
 */
public final class CountingBcast implements CollectiveAlgorithm.Bcast {
    static final AtomicInteger CALLS = new AtomicInteger();
    private static final int TAG = 4242;

    @Override
    public String name() {
        return "counting-linear";
    }

    @Override
    public String description() {
        return "test only: root sends to every rank, counting calls";
    }

    @Override
    public int priority() {
        return -1000;
    }

    @Override
    public void bcast(CollChannel ch, Buffer buf, int root) {
        CALLS.incrementAndGet();
        if (ch.rank() != root) {
            ch.recv(buf, root, TAG);
            return;
        }
        Request[] sends = new Request[ch.size() - 1];
        for (int r = 0, i = 0; r < ch.size(); r++) {
            if (r != root) {
                sends[i++] = ch.isend(buf, r, TAG);
            }
        }
        Request.waitAll(sends);
    }

    /** Registers it (META-INF/services of the test classpath). */
    public static final class Provider implements CollectiveProvider {
        @Override
        public List<CollectiveAlgorithm> algorithms() {
            return List.of(new CountingBcast());
        }
    }
}
