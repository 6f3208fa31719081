package io.mpirunj.runtime.transport.local;

import io.mpirunj.MpiException;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.Transport;
import io.mpirunj.runtime.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The in-JVM transport of one job whose ranks are threads: each transport it makes hands a frame
 * straight to the destination rank's sink, on the sending thread. Nothing is serialised.
 */
public final class LocalTransports implements TransportFactory<Transport> {
    private final AtomicReferenceArray<FrameSink> sinks;

    /** The hub of a job of {@code size} ranks. */
    public LocalTransports(int size) {
        this.sinks = new AtomicReferenceArray<>(size);
    }

    @Override
    public Transport create(int rank, int size) {
        if (size != sinks.length() || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank=" + rank + ", size=" + size + " (expected: 0 <= rank < size="
                    + sinks.length() + ")");
        }
        return new LocalTransport(rank);
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
            return sinks.length();
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
        public long crowdedYieldNanos() {
            // np 8 threads on 2 cores, under load 28-64: bcast 1 B 31-58 µs yielding 20 µs first, 181-186 µs
            // parking at once; alltoall and allreduce 1 KiB 5-7x faster (benchmarks/README.md)
            return 20_000;
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
