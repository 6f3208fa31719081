package io.mpirunj.runtime.transport.tcp;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.mpirunj.runtime.wire.Hello;
import io.mpirunj.runtime.wire.HelloReply;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler of a connection this rank opened to send to {@code link.peer()}: sends
 * {@code Hello}, waits for the {@code HelloReply}, checks that it is an acceptance from the rank it
 * meant to reach, then replaces itself with {@link FrameDecoder} (which only expects the peer's
 * GOODBYE on this connection) and {@link LinkHandler}, and tells the {@link OutboundLink} it may
 * write. A refusal, a reply from the wrong rank or version, garbage or a timeout is logged, becomes
 * the link's failure cause, and closes the connection. One instance per channel.
 */
final class ConnectorHandshake extends HandshakeDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectorHandshake.class);

    private final TcpTransport transport;
    private final OutboundLink link;
    private ScheduledFuture<?> timeout;
    private boolean done;

    ConnectorHandshake(TcpTransport transport, OutboundLink link) {
        this.transport = transport;
        this.link = link;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        String stranger = NettyIo.strangerListening(ctx.channel());
        if (stranger != null) { // no token to a stranger: closed before the handshake, the link takes TCP instead
            fail(ctx, stranger);
            super.channelActive(ctx);
            return;
        }
        int ms = transport.config().handshakeTimeoutMs();
        timeout = ctx.executor().schedule(() -> fail(ctx, "no hello reply within " + ms + " ms"), ms,
                TimeUnit.MILLISECONDS);
        ctx.writeAndFlush(Handshake.encode(ctx.alloc(), Hello.newBuilder()
                .setProtocolVersion(WireProtocol.VERSION)
                .setJobToken(ByteString.copyFrom(transport.jobToken()))
                .setRank(transport.rank())
                .setWorldSize(transport.size())
                .build()));
        link.onHelloSent(ctx.channel());
        super.channelActive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done) {
            in.skipBytes(in.readableBytes());
            return;
        }
        HelloReply reply;
        try {
            ByteBuf message = Handshake.next(in);
            if (message == null) {
                return;
            }
            reply = HelloReply.parseFrom(message.nioBuffer());
        } catch (TcpProtocolException | InvalidProtocolBufferException e) {
            in.skipBytes(in.readableBytes());
            failAnswered(ctx, "bad hello reply: " + e.getMessage());
            return;
        }
        int peer = link.peer();
        if (!reply.getAccepted()) {
            failAnswered(ctx, "rank " + peer + " refused the connection: " + reply.getReason());
        } else if (reply.getProtocolVersion() != WireProtocol.VERSION) {
            failAnswered(ctx, "hello reply protocol version=" + reply.getProtocolVersion() + " (expected: "
                    + WireProtocol.VERSION + ")");
        } else if (reply.getRank() != peer) {
            failAnswered(ctx, "the process at this address is rank " + reply.getRank() + " (expected: rank " + peer
                    + ")");
        } else {
            done = true;
            timeout.cancel(false);
            TcpConfig config = transport.config();
            ChannelPipeline p = ctx.pipeline();
            p.addAfter(ctx.name(), "link", new LinkHandler(link));
            p.addAfter(ctx.name(), "frames", new FrameDecoder(transport.owner() + " -> rank " + peer,
                    config.maxFrameBytes(), config.maxEagerBytes(), FrameDecoder.DataTargets.NONE));
            p.remove(this);
            link.onReady(ctx.channel());
        }
    }

    /**
     * The listener answered, but not as the peer accepting this rank: over the same-host path that may be another
     * job's listener at the name, so the link may still try TCP ({@link OutboundLink#onAnsweredNotAccepted}).
     */
    private void failAnswered(ChannelHandlerContext ctx, String reason) {
        link.onAnsweredNotAccepted(ctx.channel());
        fail(ctx, reason);
    }

    private void fail(ChannelHandlerContext ctx, String reason) {
        if (done) {
            return;
        }
        done = true;
        LOG.warn("{}: connection to rank {} at {} failed: {}", transport.owner(), link.peer(),
                NettyIo.peerOf(ctx.channel()), reason);
        link.recordCause(new TcpProtocolException(reason));
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        link.recordCause(cause);
        ctx.close();
    }
}
