package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Transport#send} on its way: the frame, its payload and the completion callback. It is
 * what {@link OutboundLink} queues and {@link FrameEncoder} writes, and the listener of that write's
 * promise, so a send costs this object and the promise, nothing more.
 *
 * <p>Ownership: the payload belongs to this object until {@link FrameEncoder} takes it (and hands it
 * to the channel) or it is {@linkplain #fail failed}. The object is reference counted like a ByteBuf:
 * the encoder releases it as it writes it, and a payload it still holds then is released with it.
 *
 * <p>The {@link Transport.WriteListener} runs exactly once: from the write promise if the frame was
 * written to a channel, else from {@link #fail}; the transport never does both for one frame.
 */
final class OutboundFrame extends AbstractReferenceCounted implements ChannelFutureListener {
    private static final Logger LOG = LoggerFactory.getLogger(OutboundFrame.class);

    private final Frame frame;
    private final int headerSize;
    private final Transport.WriteListener listener;
    private ByteBuf payload;
    /** The payload still to be converted to the wire layout ({@link Transport#sendConverting}), or null. */
    private final Buffer unconverted;

    OutboundFrame(Frame frame, int headerSize, ByteBuf payload, Transport.WriteListener listener) {
        this(frame, headerSize, payload, null, listener);
    }

    /** A frame whose payload is {@code unconverted}'s bytes, converted chunk by chunk as they are written. */
    OutboundFrame(Frame frame, int headerSize, Buffer unconverted, Transport.WriteListener listener) {
        this(frame, headerSize, null, unconverted, listener);
    }

    private OutboundFrame(Frame frame, int headerSize, ByteBuf payload, Buffer unconverted,
            Transport.WriteListener listener) {
        this.frame = frame;
        this.headerSize = headerSize;
        this.payload = payload;
        this.unconverted = unconverted;
        this.listener = listener;
    }

    Frame frame() {
        return frame;
    }

    /** {@link FrameHeaderCodec#headerSize(Frame)}, computed once when the send was checked. */
    int headerSize() {
        return headerSize;
    }

    /** Payload bytes on the wire (the payload itself may have been taken by a {@link ChunkedPayload}). */
    int payloadBytes() {
        return frame.hasPayload() ? frame.length() : 0;
    }

    /** True if the payload must be written in chunks: it needs converting, or {@link ChunkedPayload#wanted}. */
    boolean wantsChunks() {
        return unconverted != null || ChunkedPayload.wanted(payload);
    }

    /** The payload to convert as it is written ({@link Transport#sendConverting}), or null. */
    Buffer unconverted() {
        return unconverted;
    }

    /** Takes the payload (null if none); the caller now owns it. */
    ByteBuf takePayload() {
        ByteBuf p = payload;
        payload = null;
        return p;
    }

    /**
     * False if nobody waits for this frame's write ({@link Transport.WriteListener#NONE}): it may then
     * go out with the channel's void promise, saving a promise per frame (a failed write still
     * closes the link through the pipeline's exception).
     */
    boolean wantsCompletion() {
        return listener != Transport.WriteListener.NONE;
    }

    /** The write promise completed: the frame is in the kernel, or it could not be written. */
    @Override
    public void operationComplete(ChannelFuture future) {
        notifyListener(future.isSuccess() ? null : future.cause());
    }

    /** The frame never reached a channel: releases the payload and reports {@code cause}. */
    void fail(Throwable cause) {
        ByteBuf p = takePayload();
        if (p != null) {
            p.release();
        }
        notifyListener(cause);
    }

    private void notifyListener(Throwable cause) {
        try {
            listener.onWritten(cause);
        } catch (RuntimeException | Error e) {
            LOG.error("write listener of {} threw", frame, e);
        }
    }

    @Override
    protected void deallocate() {
        ByteBuf p = takePayload();
        if (p != null) {
            p.release();
        }
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        return this;
    }

    @Override
    public String toString() {
        return "OutboundFrame[" + frame + "]";
    }
}
