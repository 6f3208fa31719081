package io.mpirunj.runtime.transport.tcp;

import io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last inbound handler of a connection this rank sends on. The peer only ever sends GOODBYE here:
 * that closes the connection cleanly; any other frame is a protocol violation. Also resumes the
 * link's writing when the channel becomes writable again, and records why the channel failed.
 * One instance per channel.
 */
final class LinkHandler extends PlainInboundHandler {
    private static final Logger LOG = LoggerFactory.getLogger(LinkHandler.class);

    private final OutboundLink link;

    LinkHandler(OutboundLink link) {
        this.link = link;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        InboundFrame event = (InboundFrame) msg; // the decoder releases any payload we leave
        if (event.type() == InboundFrame.Type.GOODBYE) {
            link.onGoodbye();
            ctx.close();
            return;
        }
        String reason = "rank " + link.peer() + " sent " + event + " on a connection it accepted (expected: GOODBYE only)";
        LOG.warn("{}: closing connection with {}: {}", link.owner(), NettyIo.peerOf(ctx.channel()), reason);
        link.recordCause(new TcpProtocolException(reason));
        ctx.close();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            link.onWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof TcpProtocolException)) { // the decoder has logged those
            LOG.debug("{}: connection to rank {} failed", link.owner(), link.peer(), cause);
        }
        link.recordCause(cause);
        ctx.close();
    }
}
