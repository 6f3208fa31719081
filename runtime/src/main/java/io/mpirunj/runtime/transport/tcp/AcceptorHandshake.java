package io.mpirunj.runtime.transport.tcp;

import com.google.protobuf.InvalidProtocolBufferException;
import io.mpirunj.runtime.wire.Hello;
import io.mpirunj.runtime.wire.HelloReply;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler of an accepted connection: reads the connector's {@code Hello}, checks protocol
 * version, job token, world size and rank, answers with a {@code HelloReply}, and on success
 * replaces itself with the receive pipeline ({@link FrameDecoder} then {@link InboundDispatcher}),
 * which gets any bytes that arrived behind the hello.
 *
 * <p>Anything else is refused with a WARN naming the remote address and the reason, and the
 * connection closes: garbage or a length out of range (no answer), a wrong token, version, size or
 * rank (an answer saying why), or no hello within the handshake timeout. The transport and the
 * job carry on. One instance per channel.
 */
final class AcceptorHandshake extends HandshakeDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(AcceptorHandshake.class);

    private final TcpTransport transport;
    private ScheduledFuture<?> timeout;
    private boolean done;

    AcceptorHandshake(TcpTransport transport) {
        this.transport = transport;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        int ms = transport.config().handshakeTimeoutMs();
        timeout = ctx.executor().schedule(() -> refuse(ctx, "no hello within " + ms + " ms", false), ms,
                TimeUnit.MILLISECONDS);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        timeout.cancel(false);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done) {
            in.skipBytes(in.readableBytes());
            return;
        }
        Hello hello;
        try {
            ByteBuf message = Handshake.next(in);
            if (message == null) {
                return;
            }
            hello = Hello.parseFrom(message.nioBuffer());
        } catch (TcpProtocolException | InvalidProtocolBufferException e) {
            in.skipBytes(in.readableBytes());
            refuse(ctx, e.getMessage(), false);
            return;
        }
        String problem = transport.checkHello(hello);
        if (problem == null) {
            problem = transport.registerInbound(hello.getRank(), ctx.channel());
        }
        if (problem != null) {
            refuse(ctx, problem, true);
            return;
        }
        done = true;
        timeout.cancel(false);
        int src = hello.getRank();
        ctx.writeAndFlush(Handshake.encode(ctx.alloc(), HelloReply.newBuilder()
                .setProtocolVersion(WireProtocol.VERSION)
                .setAccepted(true)
                .setRank(transport.rank())
                .build()));
        InboundDispatcher dispatcher = new InboundDispatcher(transport, src);
        TcpConfig config = transport.config();
        ChannelPipeline p = ctx.pipeline();
        p.addAfter(ctx.name(), "dispatcher", dispatcher);
        FrameDecoder frames = new FrameDecoder(transport.owner() + " <- rank " + src, config.maxFrameBytes(),
                config.maxEagerBytes(), dispatcher);
        p.addAfter(ctx.name(), "frames", frames);
        if (ctx.channel().config().getRecvByteBufAllocator() instanceof TargetedReadAllocator) {
            ((TargetedReadAllocator) ctx.channel().config().getRecvByteBufAllocator()).serve(frames);
        }
        p.remove(this);
        LOG.debug("{}: accepted connection from rank {} at {}", transport.owner(), src, NettyIo.peerOf(ctx.channel()));
    }

    private void refuse(ChannelHandlerContext ctx, String reason, boolean answer) {
        if (done) {
            return;
        }
        done = true;
        LOG.warn("{}: refused connection from {}: {}", transport.owner(), NettyIo.peerOf(ctx.channel()), reason);
        if (answer) {
            ctx.writeAndFlush(Handshake.encode(ctx.alloc(), HelloReply.newBuilder()
                    .setProtocolVersion(WireProtocol.VERSION)
                    .setAccepted(false)
                    .setRank(transport.rank())
                    .setReason(reason)
                    .build()))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!done) {
            refuse(ctx, cause.toString(), false);
        } else {
            ctx.close();
        }
    }
}
