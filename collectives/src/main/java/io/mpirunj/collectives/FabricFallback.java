package io.mpirunj.collectives;

import io.mpirunj.collectives.mesh.LiveMeshMulticasts;
import io.mpirunj.collectives.star.StarBroadcasts;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fabric-bound algorithm (mesh, torus, star) runs when the job's fabric does not fit it: the
 * highest-priority algorithm of the same operation that needs no fabric, with one warning (by the communicator's
 * rank 0, once per algorithm and JVM) saying what is missing. One instance per fabric-bound algorithm.
 */
public final class FabricFallback {
    private static final Logger LOG = LoggerFactory.getLogger(FabricFallback.class);

    private final CollectiveOp op;
    private final String name;
    private final String needs;
    private final AtomicBoolean warned = new AtomicBoolean();

    /** For algorithm {@code op=name}, which {@code needs} (e.g. "--fabric star:N and N! ranks"). */
    public FabricFallback(CollectiveOp op, String name, String needs) {
        this.op = op;
        this.name = name;
        this.needs = needs;
    }

    /** The algorithm to run instead, because of {@code why}; warns the first time. */
    public CollectiveAlgorithm instead(CollChannel ch, String why) {
        CollectiveAlgorithm best = null;
        for (CollectiveAlgorithm a : ch.registry().all(op)) {
            if (!fabricBound(a) && (best == null || a.priority() > best.priority())) {
                best = a;
            }
        }
        if (best == null) {
            throw new IllegalStateException(op.cliName() + "=" + name + " cannot run (" + why + ") and no other "
                    + op.cliName() + " algorithm is registered");
        }
        ch.ranInstead(best);
        if (ch.rank() == 0 && warned.compareAndSet(false, true)) { // the communicator's rank 0, not every rank JVM
            LOG.warn("{}={} needs {}; {}: using {}={} instead", op.cliName(), name, needs, why, op.cliName(),
                    best.name());
        }
        return best;
    }

    /** Placed on a fabric (mesh or star) or read from a file: never a fallback. */
    private static boolean fabricBound(CollectiveAlgorithm a) {
        return LiveMeshMulticasts.isLive(a) || StarBroadcasts.NAMES.contains(a.name())
                || a instanceof CollectiveAlgorithm.Parameterized;
    }
}
