package io.mpirunj.runtime.transport;

import io.mpirunj.Buffer;
import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * A transport that hands every call to another one: the base of the decorators installed with
 * {@code RuntimeConfig.withTransportDecorator} (fabric emulation, message traces), which override only
 * the calls they change. Every method of {@link Transport}, defaults included, goes to the inner transport,
 * so a decorator runs the protocol its transport would (streamed eager, converting sends); a decorator
 * that overrides {@link #send} but must see every frame overrides {@link #sendConverting} too.
 */
public abstract class ForwardingTransport implements Transport {
    /** The transport underneath. */
    protected final Transport inner;

    protected ForwardingTransport(Transport inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public int rank() {
        return inner.rank();
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public void start(FrameSink sink) {
        inner.start(sink);
    }

    @Override
    public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
        inner.send(dst, frame, payload, onWritten);
    }

    @Override
    public void sendConverting(int dst, Frame frame, Buffer src, WriteListener onWritten) {
        inner.sendConverting(dst, frame, src, onWritten);
    }

    @Override
    public ByteBuf allocate(int bytes) {
        return inner.allocate(bytes);
    }

    @Override
    public long spinBeforeYieldNanos() {
        return inner.spinBeforeYieldNanos();
    }

    @Override
    public long crowdedYieldNanos() {
        return inner.crowdedYieldNanos();
    }

    @Override
    public boolean copiesPayloadBeforeCompletion() {
        return inner.copiesPayloadBeforeCompletion();
    }

    @Override
    public TransportProgress progress() {
        return inner.progress();
    }

    @Override
    public void close() {
        inner.close();
    }
}
