package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last inbound handler of a connection accepted from rank {@code src}: hands each
 * {@link InboundFrame} to the transport's {@link FrameSink} (in arrival order, on this channel's
 * event loop), answers the decoder's DATA target lookups from the sink, and reports how the
 * connection ended: after a GOODBYE cleanly, otherwise as the loss of {@code src}.
 *
 * <p>Ownership: an EAGER (or unstreamed DATA) payload passes to the sink with
 * {@link FrameSink#onFrame}. Once the local transport is closing, frames are dropped and the decoder
 * releases their payloads. One instance per channel.
 */
final class InboundDispatcher extends ChannelInboundHandlerAdapter implements FrameDecoder.DataTargets {
    private static final Logger LOG = LoggerFactory.getLogger(InboundDispatcher.class);

    private final TcpTransport transport;
    private final int src;
    private boolean goodbye;
    private Throwable cause;

    InboundDispatcher(TcpTransport transport, int src) {
        this.transport = transport;
        this.src = src;
    }

    @Override
    public Buffer dataTarget(Frame frame) {
        return transport.isClosed() ? null : transport.sink().dataTarget(src, frame);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        InboundFrame event = (InboundFrame) msg;
        if (event.type() == InboundFrame.Type.GOODBYE) {
            goodbye = true;
            transport.onPeerGoodbye(src);
            ctx.close();
            return;
        }
        if (transport.isClosed()) {
            return;
        }
        FrameSink sink = transport.sink();
        try {
            if (event.type() == InboundFrame.Type.STREAMED) {
                sink.onDataStreamed(src, event.frame());
            } else {
                sink.onFrame(src, event.frame(), event.takePayload());
            }
        } catch (RuntimeException e) {
            LOG.error("{}: frame sink threw on {} from rank {}", transport.owner(), event.frame(), src, e);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
        if (cause == null) {
            cause = t;
        }
        if (!(t instanceof TcpProtocolException) && !transport.isClosed()) { // the decoder has logged those
            LOG.warn("{}: connection from rank {} at {} failed: {}", transport.owner(), src,
                    ctx.channel().remoteAddress(), t.toString());
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        transport.onInboundClosed(src, ctx.channel(), goodbye, cause);
        ctx.fireChannelInactive();
    }
}
