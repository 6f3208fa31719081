package io.mpirunj.runtime.local;

import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.transport.Transport;
import io.mpirunj.runtime.transport.TransportFactory;
import io.mpirunj.runtime.transport.Transports;

/**
 * A job whose ranks are threads of one JVM: N rank contexts wired by the in-JVM transport
 * ({@link io.mpirunj.runtime.transport.local.LocalTransports}), which hands each frame straight to the
 * destination's engine on the sending thread. Nothing is serialised. An
 * eager message is copied twice: into a pooled buffer at the send (which then completes), and from
 * it into the receive buffer. A rendezvous message from a {@code byte[]} or a byte or little-endian
 * ByteBuffer is copied once, from the sender's memory into the receiver's; from other buffers (typed
 * arrays, big-endian typed ByteBuffers) it is first converted into a pooled buffer, so twice.
 */
public final class LocalJob implements AutoCloseable {
    private final int size;
    private final RankContext[] contexts;

    public LocalJob(int size, RuntimeConfig config, JobControl control) {
        this(size, config, control, CollectiveRegistry.of(config, LocalJob.class.getClassLoader()));
    }

    public LocalJob(int size, RuntimeConfig config, JobControl control, CollectiveRegistry registry) {
        if (size < 1) {
            throw new IllegalArgumentException("size=" + size + " (expected: >= 1)");
        }
        this.size = size;
        this.contexts = new RankContext[size];
        // Every rank of this job shares this host's cores: waiters know whether to spin.
        RuntimeConfig rankConfig = config.withLocalRanks(Math.max(config.localRanks(), size));
        TransportFactory<Transport> transports = Transports.forThreads(config, size);
        // Thread-specific thresholds, unless an emulated fabric times the messages (its costs are the model's)
        CollectiveRegistry threadsRegistry = config.fabricSpec() == null ? registry.forRankThreads() : registry;
        for (int r = 0; r < size; r++) {
            Transport t = Transports.decorate(transports.create(r, size), config);
            contexts[r] = new RankContext(r, size, t, announcingFinish(r, control), rankConfig, threadsRegistry);
        }
    }

    /**
     * {@code control} as rank {@code rank} sees it: at Mpi.finish it also tells every other rank's engine how many
     * messages this one sent it ({@link io.mpirunj.runtime.p2p.P2pEngine#onPeerInFinish}), at once (the launcher of
     * rank processes waits a moment first, to spare the messages).
     */
    private JobControl announcingFinish(int rank, JobControl control) {
        return new JobControl() {
            @Override
            public void abort(int worldRank, int exitCode, String reason) {
                control.abort(worldRank, exitCode, reason);
            }

            @Override
            public long finishFence(long[] collectiveSentTo, long[] sentTo) {
                for (int r = 0; r < contexts.length; r++) {
                    if (r != rank) {
                        contexts[r].engine().onPeerInFinish(rank, sentTo[r]);
                    }
                }
                return control.finishFence(collectiveSentTo, sentTo);
            }
        };
    }

    public int size() {
        return size;
    }

    public RankContext context(int rank) {
        return contexts[rank];
    }

    /**
     * Closes every rank's transport and engine (ranks that called finish have already), releasing
     * messages still queued at ranks that failed or never finished.
     */
    @Override
    public void close() {
        for (RankContext c : contexts) {
            c.transport().close();
            c.engine().close();
        }
    }
}
