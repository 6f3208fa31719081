package io.mpirunj.runtime.trace;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.NanoClock;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.ForwardingTransport;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A transport decorator that records every message into a {@link MessageTrace}: its send (an EAGER
 * frame, or the RTS of a rendezvous) and its delivery (the EAGER frame's arrival, or the rendezvous DATA
 * once received). It sits outside the fabric emulation, so it sees what the ranks see.
 */
public final class TracingTransport extends ForwardingTransport {
    private final MessageTrace trace;
    private final NanoClock clock;
    private final AtomicLongArray sent;
    private final AtomicLongArray arrived;
    /** Rendezvous at this receiver: (src, sendId) -> seq, then recvId -> (src, seq). */
    private final Map<Long, Long> byRts = new ConcurrentHashMap<>();
    private final Map<Long, long[]> byRecvId = new ConcurrentHashMap<>();

    TracingTransport(Transport inner, MessageTrace trace, NanoClock clock) {
        super(inner);
        this.trace = trace;
        this.clock = clock;
        this.sent = new AtomicLongArray(inner.size());
        this.arrived = new AtomicLongArray(inner.size());
        trace.opened();
    }

    /** {@code config} with every transport it makes recording into {@code trace} (on the config's clock). */
    public static RuntimeConfig install(RuntimeConfig config, MessageTrace trace) {
        NanoClock clock = config.clock();
        return config.withTransportDecorator(t -> new TracingTransport(t, trace, clock));
    }

    @Override
    public void start(FrameSink sink) {
        inner.start(new FrameSink() {
            @Override
            public void onFrame(int src, Frame frame, ByteBuf payload) {
                arrival(src, frame);
                sink.onFrame(src, frame, payload);
                if (frame.kind() == FrameKind.DATA) {
                    dataIn(frame);
                }
            }

            @Override
            public Buffer dataTarget(int src, Frame frame) {
                return sink.dataTarget(src, frame);
            }

            @Override
            public void onDataStreamed(int src, Frame frame) {
                arrival(src, frame); // an EAGER frame streamed into a posted receive is a delivery too
                sink.onDataStreamed(src, frame);
                if (frame.kind() == FrameKind.DATA) {
                    dataIn(frame);
                }
            }

            @Override
            public void onPeerFailed(int peer, Throwable cause) {
                sink.onPeerFailed(peer, cause);
            }

            @Override
            public void onPeerLeft(int peer) {
                sink.onPeerLeft(peer);
            }
        });
    }

    private void arrival(int src, Frame frame) {
        if (io.mpirunj.runtime.comm.CommImpl.isRuntimeExchange(frame)) {
            return;
        }
        if (frame.kind() == FrameKind.EAGER) {
            trace.deliver(src, rank(), arrived.getAndIncrement(src), clock.nanoTime());
        } else if (frame.kind() == FrameKind.RTS) {
            byRts.put(key(src, frame.sendId()), arrived.getAndIncrement(src));
        }
    }

    private void dataIn(Frame frame) {
        long[] m = byRecvId.remove(frame.recvId());
        if (m != null) {
            trace.deliver((int) m[0], rank(), m[1], clock.nanoTime());
        }
    }

    private static long key(int src, long sendId) {
        return sendId * 65_537L + src;
    }

    @Override
    public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
        record(dst, frame);
        inner.send(dst, frame, payload, onWritten);
    }

    @Override
    public void sendConverting(int dst, Frame frame, Buffer src, WriteListener onWritten) {
        record(dst, frame);
        inner.sendConverting(dst, frame, src, onWritten);
    }

    private void record(int dst, Frame frame) {
        // the runtime's own exchanges are not the program's messages: not traced, as the emulated fabric does not
        // model them
        if (io.mpirunj.runtime.comm.CommImpl.isRuntimeExchange(frame)) {
            return;
        }
        if (frame.kind() == FrameKind.EAGER || frame.kind() == FrameKind.RTS) {
            trace.send(rank(), dst, sent.getAndIncrement(dst), frame.tag(), frame.length(), clock.nanoTime());
        } else if (frame.kind() == FrameKind.CTS) {
            Long seq = byRts.remove(key(dst, frame.sendId()));
            if (seq != null) {
                byRecvId.put(frame.recvId(), new long[] {dst, seq});
            }
        }
    }

    @Override
    public void close() {
        inner.close();
        trace.closed();
    }
}
