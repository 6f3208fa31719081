package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.epoll.EpollSocketChannel;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>Acknowledgements: a connection carries frames one way only, so the kernel, which sees a
 * connection that never answers, acknowledges every small segment as soon as it is read: one more
 * packet through the loopback stack per message (13 % of the ranks' CPU in osu_bcast 1 B at np 8).
 * With epoll the connection is kept in delayed-ACK ("ping-pong") mode instead ({@code TCP_QUICKACK}
 * off, {@link #DELAYED_ACKS_PROP}), where the kernel acknowledges every second small segment, or
 * after the delayed-ACK timer; bulk data is still acknowledged every second full segment. The
 * timer's firing (no earlier than 40 ms after a lone segment) leaves that mode, so it is re-armed
 * after reads at most every {@link #REARM_NANOS}. A Unix domain socket (the same-host path) has no
 * acknowledgements: it is not an {@code EpollSocketChannel}, so this is skipped there.
 */
final class InboundDispatcher extends PlainInboundHandler implements FrameDecoder.DataTargets {
    private static final Logger LOG = LoggerFactory.getLogger(InboundDispatcher.class);

    /** Whether accepted connections acknowledge lazily (epoll only); {@code -Dmpirunj.tcp.delayedAcks}. */
    static final String DELAYED_ACKS_PROP = "mpirunj.tcp.delayedAcks";
    static final boolean DELAYED_ACKS = Boolean.parseBoolean(System.getProperty(DELAYED_ACKS_PROP, "true"));
    /** Well below the kernel's shortest delayed-ACK timeout (TCP_ATO_MIN, 40 ms), whose firing ends the mode. */
    private static final long REARM_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final TcpTransport transport;
    private final int src;
    /** When {@code TCP_QUICKACK} was last turned off on this channel (event loop only). */
    private long armedNanos;
    private boolean armed;
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
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (DELAYED_ACKS && ctx.channel() instanceof EpollSocketChannel) {
            long now = System.nanoTime();
            if (!armed || now - armedNanos >= REARM_NANOS) {
                armed = true;
                armedNanos = now;
                try {
                    ((EpollSocketChannel) ctx.channel()).config().setTcpQuickAck(false);
                } catch (RuntimeException e) {
                    LOG.debug("{}: TCP_QUICKACK on the connection from rank {}: {}", transport.owner(), src, e.toString());
                }
            }
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
        if (cause == null) {
            cause = t;
        }
        if (!(t instanceof TcpProtocolException) && !transport.isClosed()) { // the decoder has logged those
            LOG.warn("{}: connection from rank {} at {} failed: {}", transport.owner(), src,
                    NettyIo.peerOf(ctx.channel()), t.toString());
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        transport.onInboundClosed(src, ctx.channel(), goodbye, cause);
        ctx.fireChannelInactive();
    }
}
