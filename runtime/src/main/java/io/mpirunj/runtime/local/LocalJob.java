package io.mpirunj.runtime.local;

import io.mpirunj.MpiException;
import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A job whose ranks are threads of one JVM: N rank contexts wired by an in-JVM transport that hands
 * each frame straight to the destination's engine on the sending thread. Nothing is serialised. An
 * eager message is copied twice: into a pooled buffer at the send (which then completes), and from
 * it into the receive buffer. A rendezvous message from a {@code byte[]} or a byte or little-endian
 * ByteBuffer is copied once, from the sender's memory into the receiver's; from other buffers (typed
 * arrays, big-endian typed ByteBuffers) it is first converted into a pooled buffer, so twice.
 */
public final class LocalJob implements AutoCloseable {
    private final int size;
    private final AtomicReferenceArray<FrameSink> sinks;
    private final RankContext[] contexts;

    public LocalJob(int size, RuntimeConfig config, JobControl control) {
        this(size, config, control, CollectiveRegistry.of(config, LocalJob.class.getClassLoader()));
    }

    public LocalJob(int size, RuntimeConfig config, JobControl control, CollectiveRegistry registry) {
        if (size < 1) {
            throw new IllegalArgumentException("size=" + size + " (expected: >= 1)");
        }
        this.size = size;
        this.sinks = new AtomicReferenceArray<>(size);
        this.contexts = new RankContext[size];
        for (int r = 0; r < size; r++) {
            contexts[r] = new RankContext(r, size, new LocalTransport(r), control, config, registry);
        }
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

    private final class LocalTransport implements Transport {
        private final int rank;
        private volatile boolean closed;

        LocalTransport(int rank) {
            this.rank = rank;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public void start(FrameSink sink) {
            sinks.set(rank, sink);
        }

        @Override
        public long spinBeforeYieldNanos() {
            return 20_000; // the peer that completes a wait is another rank thread, on another core
        }

        @Override
        public ByteBuf allocate(int bytes) {
            return PooledByteBufAllocator.DEFAULT.heapBuffer(bytes, bytes);
        }

        @Override
        public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
            FrameSink sink = sinks.get(dst);
            if (closed || sink == null) {
                if (payload != null) {
                    payload.release();
                }
                onWritten.onWritten(new MpiException("in-JVM transport: rank " + (closed ? rank : dst) + " is closed"));
                return;
            }
            sink.onFrame(rank, frame, payload);
            onWritten.onWritten(null);
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
