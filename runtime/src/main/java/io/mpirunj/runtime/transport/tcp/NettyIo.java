package io.mpirunj.runtime.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.EventExecutor;

/**
 * The Netty plumbing shared by the TCP transport and the rendezvous endpoints: native epoll when
 * available (NIO otherwise), daemon event-loop threads, the pooled allocator and TCP_NODELAY; with
 * epoll also the Unix domain sockets of the same-host path ({@link TcpConfig#LOCAL_SOCKETS_PROP}).
 */
public final class NettyIo {
    /** Netty's JFR property: with JFR events on, Netty's allocator initialises JFR in every rank. */
    public static final String NETTY_JFR_PROP = "io.netty.jfr.enabled";
    /** Netty's default allocator ({@code ByteBufAllocator.DEFAULT}): "adaptive" in Netty 4.2, "pooled" here. */
    public static final String NETTY_ALLOCATOR_PROP = "io.netty.allocator.type";

    static {
        applyDefaults();
    }

    /**
     * Our defaults for Netty, each unless set with {@code -D} (in a rank: {@code -J -D...}); a rank and the
     * launcher call this before Netty's first use, and it also runs when this class is first used:
     * <ul>
     *   <li>no leak detector: it records a stack trace for one buffer in 128 (1.3 % of a sender's CPU in
     *       osu_bw at 1 KiB; the tests ask for paranoid);</li>
     *   <li>no JFR events of the allocator ({@link #NETTY_JFR_PROP}): registering them initialises JFR and
     *       instruments classes, a large share of a rank's start-up;</li>
     *   <li>"pooled" as the default allocator ({@link #NETTY_ALLOCATOR_PROP}): Netty 4.2's adaptive one fills
     *       its queues at class initialisation, about 8 % of a rank's start-up work in a profile, and every
     *       channel and buffer of ours uses {@code PooledByteBufAllocator.DEFAULT} anyway.</li>
     * </ul>
     * The two properties must be set before Netty's allocator classes initialise: calling this is what
     * makes sure of that where Netty may be used before this class.
     */
    public static void applyDefaults() {
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        if (System.getProperty(NETTY_JFR_PROP) == null) {
            System.setProperty(NETTY_JFR_PROP, "false");
        }
        if (System.getProperty(NETTY_ALLOCATOR_PROP) == null) {
            System.setProperty(NETTY_ALLOCATOR_PROP, "pooled");
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
        return client(group, epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true);
    }

    /** A server bootstrap on {@code group} with the common options for accepted channels. */
    public ServerBootstrap server(EventLoopGroup group) {
        return server(group, epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true);
    }

    /**
     * A client bootstrap for Unix domain sockets (epoll only) on {@code group}: the common options but
     * no TCP ones ({@code TCP_NODELAY}, {@code SO_KEEPALIVE} mean nothing there).
     */
    Bootstrap domainClient(EventLoopGroup group) {
        requireEpoll();
        return client(group, EpollDomainSocketChannel.class);
    }

    /** A server bootstrap for Unix domain sockets (epoll only) on {@code group}, as {@link #domainClient}. */
    ServerBootstrap domainServer(EventLoopGroup group) {
        requireEpoll();
        return server(group, EpollServerDomainSocketChannel.class);
    }

    /** A client bootstrap of channels of {@code type} on {@code group} with the options of every transport. */
    private Bootstrap client(EventLoopGroup group, Class<? extends Channel> type) {
        return new Bootstrap()
                .group(group)
                .channel(type)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR, readAllocator());
    }

    /** A server bootstrap of {@code type} on {@code group} with the options of every transport, its own and its children's. */
    private ServerBootstrap server(EventLoopGroup group, Class<? extends ServerChannel> type) {
        return new ServerBootstrap()
                .group(group)
                .channel(type)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, readAllocator());
    }

    private void requireEpoll() {
        if (!epoll) {
            throw new IllegalStateException("Unix domain sockets need native epoll");
        }
    }

    /** Socket reads of up to {@link TcpConfig#READ_MAX_BYTES_PROP} bytes, on connecting and accepted channels alike. */
    static AdaptiveRecvByteBufAllocator readAllocator() {
        return new AdaptiveRecvByteBufAllocator(64, 2048, TcpConfig.readMaxBytes());
    }

    /** True if {@code ch} is a Unix domain socket (the same-host path), not TCP. */
    static boolean isDomain(Channel ch) {
        return ch instanceof DomainSocketChannel;
    }

    /**
     * Where {@code ch} leads, for messages: its remote address, or for a Unix domain socket "local socket"
     * and its name (an accepted one has an unnamed remote end: then the listener's name), with
     * {@link #printable} spelling.
     */
    static String peerOf(Channel ch) {
        if (ch instanceof DomainSocketChannel) {
            DomainSocketAddress remote = ((DomainSocketChannel) ch).remoteAddress();
            DomainSocketAddress local = ((DomainSocketChannel) ch).localAddress();
            String name = remote != null && !remote.path().isEmpty() ? remote.path()
                    : local != null ? local.path() : "";
            return "local socket " + printable(name);
        }
        return String.valueOf(ch.remoteAddress());
    }

    /**
     * Null if {@code ch} is not a Unix domain socket, or if the process listening at its other end runs as this
     * process's user; else why not (a socket name holds no secret, so another user's process could have bound it
     * first: a rank sends its job token only to a listener of its own user, else it connects over TCP).
     */
    static String strangerListening(Channel ch) {
        return strangerListening(ch, OwnUid.UID);
    }

    /** As above, for a process whose uid is {@code ours} (-1: unknown, so every listener is a stranger). */
    static String strangerListening(Channel ch, int ours) {
        if (!(ch instanceof EpollDomainSocketChannel)) {
            return null;
        }
        try {
            int theirs = ((EpollDomainSocketChannel) ch).peerCredentials().uid();
            return theirs == ours ? null : "the local socket is another user's (uid " + theirs + ", this process: "
                    + (ours < 0 ? "unknown" : ours) + ")";
        } catch (java.io.IOException e) {
            return "cannot tell whose the local socket is: " + e.getMessage();
        }
    }

    /**
     * This process's effective uid, read once from the "Uid:" line of /proc/self/status (real, effective, saved,
     * file system); -1 if it cannot be told, and then the same-host path stays off.
     */
    static final class OwnUid {
        static final int UID = read();

        private static int read() {
            try {
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                    if (line.startsWith("Uid:")) {
                        return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // fall through: unknown
            }
            return -1;
        }
    }

    /** A socket name as {@code ss} shows it: '@' for the leading NUL of a name in the abstract namespace. */
    static String printable(String name) {
        return name.startsWith("\0") ? "@" + name.substring(1) : name;
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
