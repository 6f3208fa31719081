package io.mpirunj.runtime.transport.tcp;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoop;
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
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty plumbing shared by the TCP transport (native epoll when available, NIO otherwise) and the
 * rendezvous server (always NIO): daemon event-loop threads, the pooled allocator and TCP_NODELAY; with
 * epoll also the Unix domain sockets of the same-host path ({@link TcpConfig#LOCAL_SOCKETS_PROP}).
 */
public final class NettyIo {
    private static final Logger LOG = LoggerFactory.getLogger(NettyIo.class);

    /** Netty's JFR property: with JFR events on, Netty's allocator initialises JFR in every rank. */
    public static final String NETTY_JFR_PROP = "io.netty.jfr.enabled";
    /** Netty's default allocator ({@code ByteBufAllocator.DEFAULT}): "adaptive" in Netty 4.2, "pooled" here. */
    public static final String NETTY_ALLOCATOR_PROP = "io.netty.allocator.type";
    /** The Linux distribution names Netty looks for in native libraries' file names (netty-tcnative's, not epoll's). */
    public static final String NETTY_OS_CLASSIFIERS_PROP = "io.netty.osClassifiers";

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
     *       channel and buffer of ours uses {@code PooledByteBufAllocator.DEFAULT} anyway;</li>
     *   <li>no distribution classifiers ({@link #NETTY_OS_CLASSIFIERS_PROP} empty): without the property Netty
     *       reads and parses {@code /etc/os-release} as it initialises, ~5 ms of each rank's start-up in a
     *       profile, for the file names of libraries we do not load (the epoll library's name has none).</li>
     * </ul>
     * The properties must be set before Netty's classes initialise: calling this is what makes sure of that where
     * Netty may be used before this class.
     */
    public static void applyDefaults() {
        if (System.getProperty(NETTY_OS_CLASSIFIERS_PROP) == null) {
            System.setProperty(NETTY_OS_CLASSIFIERS_PROP, "");
        }
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

    /**
     * A channel to connect with, not yet registered: TCP (epoll or NIO), or with {@code domain} a Unix domain
     * socket (epoll only), with {@link #setConnectionOptions}, then {@code setUp} (options, handlers). If either
     * throws, the channel is closed and nothing is left open. {@link #connect} connects it.
     */
    Channel newConnectingChannel(boolean domain, Consumer<Channel> setUp) {
        Channel ch = newChannel(domain, EpollDomainSocketChannel::new, EpollSocketChannel::new, NioSocketChannel::new);
        try {
            setConnectionOptions(ch);
            setUp.accept(ch);
        } catch (RuntimeException e) {
            ch.unsafe().closeForcibly();
            throw e;
        }
        return ch;
    }

    /**
     * A channel to listen with, not yet registered: TCP (epoll or NIO), or with {@code domain} a Unix domain
     * socket (epoll only), with the pooled allocator and a backlog of 1,024. {@link #listen} binds it.
     */
    public ServerChannel newListeningChannel(boolean domain) {
        ServerChannel ch = newChannel(domain, EpollServerDomainSocketChannel::new, EpollServerSocketChannel::new,
                NioServerSocketChannel::new);
        ch.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ch.config().setOption(ChannelOption.SO_BACKLOG, 1024);
        return ch;
    }

    /** A Unix domain socket channel ({@code domain}: epoll only), else epoll's or NIO's TCP one. */
    private <C extends Channel> C newChannel(boolean domain, Supplier<C> unixDomain, Supplier<C> epollTcp,
            Supplier<C> nioTcp) {
        if (domain) {
            requireEpoll();
        }
        return (domain ? unixDomain : epoll ? epollTcp : nioTcp).get();
    }

    /**
     * The options of every connection, opened or accepted: the pooled allocator, {@link #readAllocator} reads, and
     * for TCP {@code TCP_NODELAY} and {@code SO_KEEPALIVE}.
     */
    private static void setConnectionOptions(Channel ch) {
        if (!(ch instanceof DomainSocketChannel)) {
            ch.config().setOption(ChannelOption.TCP_NODELAY, true);
            ch.config().setOption(ChannelOption.SO_KEEPALIVE, true);
        }
        ch.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ch.config().setRecvByteBufAllocator(readAllocator());
    }

    /**
     * Registers {@code ch} (set up, handlers added) with {@code group}, then connects it to {@code remote}: what
     * Netty's {@code Bootstrap.connect} does, without its reflection (a channel factory, a resolver that reads its
     * type parameter) and without a {@code ChannelInitializer}, whose annotations Netty reads
     * ({@link PlainInboundHandler} says why that matters). The future is {@code ch}'s, its listeners run on
     * {@code ch}'s event loop, and the connection starts in a later task of that loop, so listeners added as soon
     * as this returns see every outcome first, even on the loop. It fails, and {@code ch} is then closed (after
     * those listeners), if the registration or the connection fails ({@code CONNECT_TIMEOUT_MILLIS} applies) or
     * {@code remote} is a host name without an address.
     */
    static ChannelFuture connect(EventLoopGroup group, Channel ch, SocketAddress remote) {
        return registerThen(group, ch, connected -> {
            if (remote instanceof InetSocketAddress && ((InetSocketAddress) remote).isUnresolved()) {
                connected.setFailure(new UnknownHostException(((InetSocketAddress) remote).getHostString()
                        + ": no address for this host name"));
            } else {
                ch.connect(remote, connected);
            }
        });
    }

    /**
     * Registers {@code server} with {@code group}, then binds it to {@code local}; each connection it accepts gets
     * {@link #setConnectionOptions}, is handed to {@code onAccepted} (to add its handlers and
     * options) and is registered with {@code group}. What Netty's {@code ServerBootstrap.bind} does, without its
     * reflection and annotations; as it does, a failing accept (too many open files) pauses accepting for a second.
     * The future is as {@link #connect}'s.
     */
    public static ChannelFuture listen(EventLoopGroup group, ServerChannel server, SocketAddress local,
            Consumer<Channel> onAccepted) {
        server.pipeline().addLast("acceptor", new Acceptor(group, onAccepted));
        return registerThen(group, server, bound -> server.bind(local, bound));
    }

    /**
     * Registers {@code ch} with one of {@code group}'s loops and returns a promise whose listeners run on that loop
     * (also if the registration itself fails); once registered, a later task of the loop passes the promise to
     * {@code next} (connect or bind). On failure the channel is closed, after the listeners the caller added.
     */
    private static ChannelPromise registerThen(EventLoopGroup group, Channel ch, Consumer<ChannelPromise> next) {
        EventLoop loop = group.next();
        ChannelPromise done = new DefaultChannelPromise(ch, loop);
        ChannelFuture registered;
        try {
            registered = loop.register(ch);
        } catch (Throwable t) {
            ch.unsafe().closeForcibly();
            return done.setFailure(t);
        }
        registered.addListener(r -> {
            if (r.isSuccess()) {
                try {
                    loop.execute(() -> {
                        done.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                        next.accept(done);
                    });
                } catch (RejectedExecutionException e) { // the loop is shutting down
                    ch.unsafe().closeForcibly();
                    done.tryFailure(e);
                }
            } else {
                if (ch.isRegistered()) {
                    ch.close();
                } else {
                    ch.unsafe().closeForcibly();
                }
                done.tryFailure(r.cause());
            }
        });
        return done;
    }

    /** The listening channel's one handler: sets up and registers each accepted connection ({@link #listen}). */
    private static final class Acceptor extends PlainInboundHandler {
        private final EventLoopGroup group;
        private final Consumer<Channel> onAccepted;

        Acceptor(EventLoopGroup group, Consumer<Channel> onAccepted) {
            this.group = group;
            this.onAccepted = onAccepted;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            try {
                setConnectionOptions(child);
                onAccepted.accept(child);
                group.register(child).addListener(r -> {
                    if (!r.isSuccess()) {
                        dropAccepted(child, r.cause());
                    }
                });
            } catch (Throwable t) {
                dropAccepted(child, t);
            }
        }

        private static void dropAccepted(Channel child, Throwable cause) {
            child.unsafe().closeForcibly();
            LOG.warn("cannot set up a connection accepted from {}: {}", child.remoteAddress(), cause.toString());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ChannelConfig config = ctx.channel().config();
            if (config.isAutoRead()) { // else accepting is paused already, or not yet started
                config.setAutoRead(false);
                ctx.executor().schedule(() -> config.setAutoRead(true), 1, TimeUnit.SECONDS);
            }
            LOG.warn("cannot accept a connection on {} (accepting again in a second): {}", ctx.channel().localAddress(),
                    cause.toString());
        }
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
