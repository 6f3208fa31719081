package io.mpirunj.runtime.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.EventExecutor;

/**
 * The Netty plumbing shared by the TCP transport and the rendezvous endpoints: native epoll when
 * available (NIO otherwise), daemon event-loop threads, the pooled allocator and TCP_NODELAY.
 */
public final class NettyIo {
    /** Largest read from a socket (bytes); {@code -Dmpirunj.tcp.readMaxBytes}. */
    static final String READ_MAX_PROP = "mpirunj.tcp.readMaxBytes";
    static final int READ_MAX_BYTES = Math.max(4096, Integer.getInteger(READ_MAX_PROP, 64 * 1024));

    static {
        // The leak detector records a stack trace for one buffer in 128 (1.3 % of a sender's CPU in
        // osu_bw at 1 KiB); ranks and the launcher run without it unless it is asked for (the tests ask
        // for paranoid).
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final boolean epoll;

    private NettyIo(boolean epoll) {
        this.epoll = epoll;
    }

    /** Epoll if {@code preferEpoll} and the native library loads, else NIO. */
    public static NettyIo select(boolean preferEpoll) {
        return new NettyIo(preferEpoll && Epoll.isAvailable());
    }

    public boolean isEpoll() {
        return epoll;
    }

    /** A group of {@code threads} daemon event loops named {@code name-N}. */
    public EventLoopGroup newGroup(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), handlerFactory());
    }

    /** Epoll's or NIO's I/O handler. */
    public IoHandlerFactory handlerFactory() {
        return epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /** A client bootstrap on {@code group} with the common options. */
    public Bootstrap client(EventLoopGroup group) {
        return new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR, readAllocator())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true);
    }

    /** A server bootstrap on {@code group} with the common options for accepted channels. */
    public ServerBootstrap server(EventLoopGroup group) {
        return new ServerBootstrap()
                .group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, readAllocator())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true);
    }

    /** Socket reads of up to {@link #READ_MAX_BYTES}, on connecting and accepted channels alike. */
    private static AdaptiveRecvByteBufAllocator readAllocator() {
        return new AdaptiveRecvByteBufAllocator(64, 2048, READ_MAX_BYTES);
    }

    /** True if the calling thread is one of {@code group}'s event loops (where blocking is forbidden). */
    public static boolean inEventLoop(EventLoopGroup group) {
        for (EventExecutor e : group) {
            if (e.inEventLoop()) {
                return true;
            }
        }
        return false;
    }
}
