package io.mpirunj.mpicompat;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.BackgroundCollective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A linear bcast that counts its calls, so a test can see that {@code mpi}'s collectives go through the
 * pluggable algorithms. Not registered through ServiceLoader (this module's test classes reach the
 * launcher's tests too): {@link #registryForcingIt()} builds a registry that has it, forced.
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

    /** Written with blocking point-to-point calls: {@link BackgroundCollective} serves the non-blocking form. */
    @Override
    public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
        return BackgroundCollective.runOrStart(blocking, () -> {
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
        });
    }

    /** Every discoverable algorithm plus this one, with bcast forced to this one. */
    static CollectiveRegistry registryForcingIt() {
        List<CollectiveAlgorithm> all = new ArrayList<>();
        for (CollectiveProvider p : ServiceLoader.load(CollectiveProvider.class, CountingBcast.class.getClassLoader())) {
            all.addAll(p.algorithms());
        }
        all.add(new CountingBcast());
        return new CollectiveRegistry(all, "bcast=counting-linear");
    }
}
