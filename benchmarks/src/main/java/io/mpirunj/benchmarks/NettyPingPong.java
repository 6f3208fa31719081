package io.mpirunj.benchmarks;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * The floor for our TCP stack: a bare Netty ping-pong over loopback with the same Netty version,
 * transport (epoll when available) and socket options, echoing raw bytes with no framing, no
 * matching and no thread hand-off (the client sends the next ping from its event loop). Two event
 * loop groups in one JVM, so the two ends run on different threads as two processes would.
 * {@code java -cp ... io.mpirunj.benchmarks.NettyPingPong [maxBytes]}.
 */
public final class NettyPingPong {
    private NettyPingPong() {
    }

    public static void main(String[] args) throws Exception {
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 4 << 20;
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup serverGroup = group(epoll);
        EventLoopGroup clientGroup = group(epoll);
        try {
            Channel server = new ServerBootstrap().group(serverGroup)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ctx.writeAndFlush(msg); // echo: ownership passes to the write
                                }
                            });
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            System.out.println("# bare Netty ping-pong over loopback (the floor for mpirun-j's TCP path), median one-way time");
            System.out.println("# netty transport: " + (epoll ? "epoll" : "nio") + "; " + OsuFormat.conditions());
            System.out.println(String.format("%-10s%18s%18s", "# Size", "Latency (us)", "Bandwidth (MB/s)"));
            for (int size : OsuFormat.sizes(1, max)) {
                boolean large = size > OsuBenchmark.LARGE_MESSAGE_BYTES;
                int iters = large ? (size >= 1 << 20 ? 100 : 1_000) : 10_000;
                int warmup = large ? 20 : 1_000;
                Client client = new Client(size, warmup, iters);
                Channel ch = new Bootstrap().group(clientGroup)
                        .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                        .handler(client).connect(server.localAddress()).sync().channel();
                long[] rtt = client.done.get();
                ch.close().sync();
                double oneWayUs = OsuFormat.median(rtt, iters) / 2 / 1_000.0;
                System.out.println(OsuFormat.row(size, oneWayUs, size / oneWayUs));
            }
            server.close().sync();
        } finally {
            serverGroup.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
            clientGroup.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private static EventLoopGroup group(boolean epoll) {
        return new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /** Sends a ping, counts echoed bytes, times the round trip, sends the next. Event-loop only. */
    private static final class Client extends ChannelInboundHandlerAdapter {
        final CompletableFuture<long[]> done = new CompletableFuture<>();
        private final int size;
        private final int warmup;
        private final long[] rtt;
        private int round;
        private int received;
        private long t0;

        Client(int size, int warmup, int iters) {
            this.size = size;
            this.warmup = warmup;
            this.rtt = new long[iters];
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ping(ctx);
        }

        private void ping(ChannelHandlerContext ctx) {
            ByteBuf b = ctx.alloc().directBuffer(size);
            b.writerIndex(size);
            t0 = System.nanoTime();
            ctx.writeAndFlush(b);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            received += b.readableBytes();
            b.release();
            if (received < size) {
                return;
            }
            long t = System.nanoTime() - t0;
            received -= size;
            if (round >= warmup) {
                rtt[round - warmup] = t;
            }
            round++;
            if (round == warmup + rtt.length) {
                done.complete(rtt);
            } else {
                ping(ctx);
            }
        }
    }
}
