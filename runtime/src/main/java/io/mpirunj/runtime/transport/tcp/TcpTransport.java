package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.mpirunj.MpiException;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.NetworkTransport;
import io.mpirunj.runtime.transport.TransportProgress;
import io.mpirunj.runtime.wire.Hello;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Transport} between rank processes: Netty over TCP, one connection per ordered pair of
 * ranks. A rank <em>sends</em> only on connections it opened and <em>receives</em> only on
 * connections it accepted, so each direction has exactly one ordered byte stream and two ranks
 * connecting to each other at once never race.
 *
 * <pre>
 *  accepted (receive) channel:                         opened (send) channel:
 *   socket ─► AcceptorHandshake ─┐ (replaced by)        OutboundLink.enqueue (any thread)
 *             ├► FrameDecoder ──► InboundDispatcher        │ MPSC queue, drained on the channel's loop
 *             │    (DATA streamed into the sink's Buffer)  ▼
 *             └─────────────────► FrameSink             FrameEncoder ─► socket
 *                                                       (ConnectorHandshake, then FrameDecoder ─►
 *                                                        LinkHandler: only GOODBYE comes back)
 * </pre>
 *
 * <p>Same-host path ({@link TcpConfig#LOCAL_SOCKETS_PROP}): with native epoll, the constructor also binds
 * a Unix domain socket in Linux's abstract namespace ({@link #localSocketName}), with the same
 * pipeline for what it accepts; a send connection to a peer whose advertised host is this rank's
 * own goes there first, and over TCP if that fails before its handshake completes
 * ({@link OutboundLink}). The frames and protocol are the same either way.
 *
 * <p>Life cycle: the constructor binds an ephemeral port (not yet accepting), so
 * {@link #advertisedAddress()} can be published; {@link #setPeerAddresses} gives every rank's
 * address; {@link #start} begins accepting and delivering; connections open lazily on the first send
 * to a peer (frames sent meanwhile wait, in order); {@link #close} says GOODBYE on every connection,
 * waits until each peer has read what was sent and closed in answer (or is lost), stops the event
 * loops and runs the close hooks.
 *
 * <p>Failure: a connection that ends without GOODBYE (peer died, reset, protocol violation, refused
 * handshake, connect failure) reports {@link FrameSink#onPeerFailed} once per peer, unless this
 * transport is closing. Later sends to that peer fail at once through their listener.
 *
 * <p>Threading: {@link #send} and {@link #close} may be called from any thread; {@code send} never
 * blocks, {@code close} waits for the peers (not when called on one of the transport's event
 * loops). Inbound frames of one peer arrive on one event-loop thread, in order.
 */
public final class TcpTransport implements NetworkTransport {
    private static final Logger LOG = LoggerFactory.getLogger(TcpTransport.class);

    private static final int LIVE = 0;
    private static final int SAID_GOODBYE = 1;
    private static final int FAILED = 2;
    /** How long the event loops get to stop once every connection has ended. */
    private static final int LOOP_SHUTDOWN_MS = 2_000;
    /** {@link TcpConfig#SEND_BUFFER_BYTES_PROP}. */
    private static final int SEND_BUFFER_BYTES = TcpConfig.sendBufferBytes();
    /** {@link TcpConfig#LOCAL_SOCKET_SEND_BUFFER_BYTES_PROP}. */
    private static final int LOCAL_SOCKET_SEND_BUFFER_BYTES = TcpConfig.localSocketSendBufferBytes();

    private final int rank;
    private final int size;
    private final byte[] jobToken;
    private final TcpConfig config;
    private final String owner;
    private final NettyIo io;
    private final EventLoopGroup group;
    private final Channel serverChannel;
    /** The Unix domain socket listener of the same-host path, or null. */
    private final Channel localServer;
    private final InetSocketAddress advertised;
    private final WriteBufferWaterMark waterMark;
    private final ByteBufAllocator sendAllocator;

    private final AtomicReferenceArray<OutboundLink> links;
    private final AtomicReferenceArray<Channel> inbound;
    /** Per peer: LIVE, SAID_GOODBYE or FAILED. */
    private final AtomicIntegerArray peerStates;
    private final AtomicReferenceArray<Throwable> peerFailures;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<Runnable> closeHooks = new CopyOnWriteArrayList<>();
    private volatile InetSocketAddress[] peers;
    private volatile FrameSink sink;

    /**
     * Binds the listening socket on an ephemeral port of {@code config.bindHost()}.
     *
     * @param jobToken the job token's bytes; connections presenting another are refused
     * @throws MpiException if the port cannot be bound
     */
    public TcpTransport(int rank, int size, byte[] jobToken, TcpConfig config) {
        this(rank, size, jobToken, config, PooledByteBufAllocator.DEFAULT);
    }

    /** As above, with the allocator of the connections this rank opens (tests count what a send holds). */
    TcpTransport(int rank, int size, byte[] jobToken, TcpConfig config, ByteBufAllocator sendAllocator) {
        this.sendAllocator = Objects.requireNonNull(sendAllocator, "sendAllocator");
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank=" + rank + ", size=" + size + " (expected: 0 <= rank < size)");
        }
        this.rank = rank;
        this.size = size;
        this.jobToken = jobToken.clone();
        this.config = Objects.requireNonNull(config, "config");
        this.owner = "rank " + rank;
        this.links = new AtomicReferenceArray<>(size);
        this.inbound = new AtomicReferenceArray<>(size);
        this.peerStates = new AtomicIntegerArray(size);
        this.peerFailures = new AtomicReferenceArray<>(size);
        this.waterMark = new WriteBufferWaterMark(config.writeLowWaterMark(), config.writeHighWaterMark());
        this.io = NettyIo.select(config.preferEpoll());
        this.group = config.ioThreads() == 0 ? new ProgressLoop(io.handlerFactory(), "mpirunj-tcp-r" + rank)
                : io.newGroup(config.ioThreads(), "mpirunj-tcp-r" + rank);
        try {
            this.serverChannel = listen(false, new InetSocketAddress(config.bindHost(), 0)).syncUninterruptibly()
                    .channel();
        } catch (Exception e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new MpiException(owner + ": cannot bind the TCP transport to " + config.bindHost() + ": " + e, e);
        }
        int port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        this.advertised = new InetSocketAddress(config.advertiseHost(), port);
        // without this process's uid no listener could be trusted with the token (NettyIo.strangerListening)
        this.localServer = config.localSockets() && io.isEpoll() && NettyIo.OwnUid.UID >= 0 ? bindLocal() : null;
        LOG.debug("{}: TCP transport listening on {} ({}), advertised as {}; same-host path: {}", owner,
                serverChannel.localAddress(), io.isEpoll() ? "epoll" : "nio", advertised, localServer == null ? "off"
                        : NettyIo.printable(((DomainSocketAddress) localServer.localAddress()).path()));
    }

    /**
     * Binds a listener ({@code domain}: a Unix domain socket, else TCP) that accepts nothing until {@link #start}. An
     * accepted connection, TCP or Unix domain socket alike, starts with the acceptor's half of the handshake.
     */
    private ChannelFuture listen(boolean domain, SocketAddress at) {
        ServerChannel listener = io.newListeningChannel(domain);
        listener.config().setAutoRead(false);
        return NettyIo.listen(group, listener, at, ch -> {
            ch.config().setWriteBufferWaterMark(waterMark);
            // before the first read: Netty keeps the read handle it makes then; around the reads NettyIo set
            ch.config().setRecvByteBufAllocator(new TargetedReadAllocator(ch.config().getRecvByteBufAllocator()));
            ch.pipeline().addLast("handshake", new AcceptorHandshake(this));
        });
    }

    /** Binds this rank's Unix domain socket (not yet accepting); null, logged, if it cannot. */
    private Channel bindLocal() {
        DomainSocketAddress name = localSocketName(advertised, rank);
        try {
            return listen(true, name).syncUninterruptibly().channel();
        } catch (Exception e) {
            LOG.debug("{}: no same-host path: cannot bind {}: {}", owner, NettyIo.printable(name.path()), e.toString());
            return null;
        }
    }

    /**
     * The name of a rank's Unix domain socket: in the abstract namespace (a leading NUL), from the rank's advertised
     * TCP address (unique in its network namespace while it listens, as abstract names are, so two transports never
     * share a name) and the rank. No secret is in it, so a process of another user could bind the name first: a
     * connecting rank checks who listens ({@link ConnectorHandshake}: the listener's uid must be its own) before it
     * sends the job token. (A hash of the token here cost every rank JVM ~60 ms of CPU to load the JDK's security
     * providers: +9 % for `-np 16` Hello.)
     */
    static DomainSocketAddress localSocketName(InetSocketAddress advertised, int rank) {
        String host = advertised.getAddress() != null ? advertised.getAddress().getHostAddress()
                : advertised.getHostString(); // the same spelling on both ends however the host was written
        return new DomainSocketAddress("\0mpirunj-" + host + ":" + advertised.getPort() + "-" + rank);
    }

    /**
     * Where to send to {@code peer} over the same-host path: its socket name if this transport has the path
     * and {@code peer}'s advertised host is this rank's own, else null.
     */
    DomainSocketAddress localSocketOf(int peer) {
        InetSocketAddress address = addressOf(peer);
        if (localServer == null || address == null || !sameHost(address, advertised)) {
            return null;
        }
        return localSocketName(address, peer);
    }

    private static boolean sameHost(InetSocketAddress a, InetSocketAddress b) {
        return a.getHostString().equals(b.getHostString())
                || a.getAddress() != null && a.getAddress().equals(b.getAddress());
    }

    /** True if this transport listens on a Unix domain socket too (tests). */
    boolean hasLocalSocket() {
        return localServer != null;
    }

    /** Stops listening on the Unix domain socket, as if this rank had none (tests); false if it had none. */
    boolean closeLocalSocketForTest() {
        return localServer != null && localServer.close().syncUninterruptibly().isSuccess();
    }

    /** The address other ranks should connect to: the advertised host and the bound port. */
    @Override
    public InetSocketAddress advertisedAddress() {
        return advertised;
    }

    /** The local address of the listening socket. */
    public InetSocketAddress boundAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** True if the transport uses native epoll (else NIO). */
    public boolean isEpoll() {
        return io.isEpoll();
    }

    /**
     * Every rank's transport address, indexed by world rank (this rank's own entry is not used).
     * Call before the first send.
     */
    @Override
    public void setPeerAddresses(List<InetSocketAddress> addresses) {
        if (addresses.size() != size) {
            throw new IllegalArgumentException("address table of " + addresses.size() + " entries (expected: size="
                    + size + ")");
        }
        peers = addresses.toArray(new InetSocketAddress[0]);
    }

    /** Runs {@code hook} at the end of {@link #close()} (e.g. closing the rendezvous client). */
    @Override
    public void addCloseHook(Runnable hook) {
        closeHooks.add(Objects.requireNonNull(hook, "hook"));
    }

    /** The rank's waiting threads drive this transport, unless it runs on Netty event-loop threads. */
    @Override
    public TransportProgress progress() {
        return group instanceof ProgressLoop ? (ProgressLoop) group : null;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void start(FrameSink frameSink) {
        Objects.requireNonNull(frameSink, "sink");
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException(owner + ": transport already started");
        }
        sink = frameSink;
        serverChannel.config().setAutoRead(true);
        if (localServer != null) {
            localServer.config().setAutoRead(true);
        }
    }

    /** From the allocator of this rank's outbound connections. */
    @Override
    public ByteBuf allocate(int bytes) {
        return sendAllocator.directBuffer(bytes, bytes);
    }

    /** The write promise completes once the socket has taken the bytes. */
    @Override
    public boolean copiesPayloadBeforeCompletion() {
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Fails through {@code onWritten} (never throws) if {@code dst} is out of range, the payload
     * disagrees with {@code frame.length()}, the frame exceeds {@link TcpConfig#maxFrameBytes()}, the
     * transport is closed, or {@code dst} has failed or left.
     */
    @Override
    public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
        int headerSize = FrameHeaderCodec.headerSize(frame);
        enqueue(dst, new OutboundFrame(frame, headerSize, payload, listener(onWritten)),
                payload == null ? 0 : payload.readableBytes());
    }

    /** Converts {@code src} a chunk at a time as the connection drains ({@link ChunkedPayload}). */
    @Override
    public void sendConverting(int dst, Frame frame, Buffer src, WriteListener onWritten) {
        int headerSize = FrameHeaderCodec.headerSize(frame);
        enqueue(dst, new OutboundFrame(frame, headerSize, src, listener(onWritten)), src.byteLength());
    }

    private static WriteListener listener(WriteListener onWritten) {
        return onWritten != null ? onWritten : WriteListener.NONE;
    }

    private void enqueue(int dst, OutboundFrame out, int payloadBytes) {
        Throwable problem = checkSend(dst, out.frame(), out.headerSize(), payloadBytes);
        if (problem != null) {
            out.fail(problem);
            return;
        }
        links(dst).enqueue(out);
    }

    private Throwable checkSend(int dst, Frame frame, int headerSize, int payloadBytes) {
        if (dst < 0 || dst >= size) {
            return new IllegalArgumentException(owner + ": send of " + frame + " to rank " + dst
                    + " (expected: 0.." + (size - 1) + ")");
        }
        int expected = frame.hasPayload() ? frame.length() : 0;
        if (payloadBytes != expected) {
            return new IllegalArgumentException(owner + ": " + frame + " to rank " + dst + " with " + payloadBytes
                    + " payload bytes (expected: " + expected + ")");
        }
        long frameBytes = (long) FrameHeaderCodec.varintSize(headerSize) + headerSize + payloadBytes;
        if (frameBytes > config.maxFrameBytes()) {
            return new IllegalArgumentException(owner + ": " + frame + " to rank " + dst + " needs a frame of "
                    + frameBytes + " bytes (expected: <= " + TcpConfig.MAX_FRAME_BYTES_PROP + "="
                    + config.maxFrameBytes() + "); split the message");
        }
        if (closed.get()) {
            return new IOException(owner + ": transport closed");
        }
        switch (peerStates.get(dst)) {
            case SAID_GOODBYE: return new IOException(owner + ": rank " + dst + " has closed its transport");
            case FAILED: return peerFailures.get(dst);
            default: return null;
        }
    }

    private OutboundLink links(int dst) {
        OutboundLink link = links.get(dst);
        if (link == null) {
            OutboundLink fresh = new OutboundLink(this, dst, group.next());
            link = links.compareAndExchange(dst, null, fresh);
            if (link == null) {
                link = fresh;
            }
        }
        return link;
    }

    /**
     * Leaves gracefully: says GOODBYE on every connection after the frames already queued, then
     * waits (not when called on one of this transport's event loops) until every peer has read
     * them and closed the connection in answer, stops the event loops, fails whatever is still
     * queued and runs the close hooks. Idempotent.
     *
     * <p>The wait has no fixed limit: a peer that is alive but slow (busy host, still starting,
     * not yet accepting) must still get this rank's last frames, and closing a socket early would
     * also reset it, discarding what the peer has not yet read. The wait for a peer ends early only
     * when it is lost: its connection fails (a dead process's sockets are reset by its kernel) or
     * {@link #abandonPeer} reports it dead. After {@link TcpConfig#closeNoticeMs()} it logs which
     * peers it still waits for.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        serverChannel.close();
        if (localServer != null) {
            localServer.close();
        }
        List<List<Future<?>>> answers = new ArrayList<>(size);
        for (int p = 0; p < size; p++) {
            List<Future<?>> fromPeer = new ArrayList<>(2);
            OutboundLink link = links.get(p);
            if (link != null) {
                fromPeer.add(link.close());
            }
            Channel ch = inbound.get(p);
            if (ch != null) {
                fromPeer.add(sayGoodbye(ch));
            }
            answers.add(fromPeer);
        }
        boolean onLoop = NettyIo.inEventLoop(group);
        if (!onLoop) {
            TransportProgress.waitPassively(progress(), () -> { // the helper drives while this thread waits on futures
                awaitAnswers(answers);
                return null;
            });
        }
        Future<?> terminated = group.shutdownGracefully(0, LOOP_SHUTDOWN_MS, TimeUnit.MILLISECONDS);
        if (!onLoop && terminated.awaitUninterruptibly(LOOP_SHUTDOWN_MS + 1000L)) {
            IOException why = new IOException(owner + ": transport closed");
            for (int p = 0; p < size; p++) {
                OutboundLink link = links.get(p);
                if (link != null) {
                    link.failQueued(why); // the loops are gone: this thread is the only consumer
                }
            }
        }
        for (Runnable hook : closeHooks) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                LOG.warn("{}: close hook failed", owner, e);
            }
        }
    }

    /** Waits until every peer's connections have ended; logs once after the notice time who is late. */
    private void awaitAnswers(List<List<Future<?>>> answers) {
        long noticeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.closeNoticeMs());
        boolean noticed = false;
        for (List<Future<?>> fromPeer : answers) {
            for (Future<?> f : fromPeer) {
                if (!noticed) {
                    long leftNs = noticeAt - System.nanoTime();
                    if (leftNs > 0 && f.awaitUninterruptibly(leftNs, TimeUnit.NANOSECONDS)) {
                        continue;
                    }
                    noticed = true;
                    LOG.warn("{}: closing: still waiting after {} ms for ranks {} to read this rank's last frames "
                            + "and answer its goodbye", owner, config.closeNoticeMs(), lateRanks(answers));
                }
                f.awaitUninterruptibly();
            }
        }
    }

    private static List<Integer> lateRanks(List<List<Future<?>>> answers) {
        List<Integer> late = new ArrayList<>();
        for (int p = 0; p < answers.size(); p++) {
            for (Future<?> f : answers.get(p)) {
                if (!f.isDone()) {
                    late.add(p);
                    break;
                }
            }
        }
        return late;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Marks {@code peer} failed (later sends to it fail with {@code cause}) and closes its
     * connections, which also ends {@link #close()}'s wait for it. Does not report it to the sink:
     * whoever learnt of the death tells the engine.
     */
    @Override
    public void abandonPeer(int peer, Throwable cause) {
        if (peer < 0 || peer >= size || peer == rank) {
            return;
        }
        peerFailures.compareAndSet(peer, null, cause);
        peerStates.compareAndSet(peer, LIVE, FAILED);
        OutboundLink link = links.get(peer);
        if (link != null) {
            link.abandon(cause);
        }
        Channel ch = inbound.get(peer);
        if (ch != null) {
            ch.close();
        }
    }

    /** The connection {@code peer} opened to this rank, or null (tests). */
    Channel inboundChannel(int peer) {
        return inbound.get(peer);
    }

    /** The connection this rank opened to {@code peer} once its handshake has completed, or null (tests). */
    Channel outboundChannel(int peer) {
        OutboundLink link = links.get(peer);
        return link == null ? null : link.readyChannel();
    }

    private Future<?> sayGoodbye(Channel ch) {
        ch.eventLoop().execute(() -> {
            if (ch.isActive()) {
                ByteBuf goodbye = ch.alloc().buffer(FrameHeaderCodec.GOODBYE_FRAME_BYTES);
                FrameHeaderCodec.writeGoodbye(goodbye);
                ch.writeAndFlush(goodbye);
            }
        });
        return ch.closeFuture();
    }

    // ---- for the handlers (package-private) -----------------------------------------------------

    String owner() {
        return owner;
    }

    TcpConfig config() {
        return config;
    }

    byte[] jobToken() {
        return jobToken;
    }

    FrameSink sink() {
        return sink;
    }

    boolean isClosed() {
        return closed.get();
    }

    InetSocketAddress addressOf(int peer) {
        InetSocketAddress[] table = peers;
        return table == null ? null : table[peer];
    }

    /**
     * A connection to {@code remote}, a peer's Unix domain socket ({@code domain}) or TCP listener, on {@code loop},
     * its pipeline from {@code handlers}: the send buffer of {@link TcpConfig#LOCAL_SOCKET_SEND_BUFFER_BYTES_PROP}
     * or {@link TcpConfig#SEND_BUFFER_BYTES_PROP} (0: the kernel's), set before connecting, and the transport's
     * connect timeout, write water marks and send allocator. The future is the channel's ({@link NettyIo#connect}).
     *
     * @throws io.netty.channel.ChannelException if no channel can be made (out of file descriptors, say); nothing
     *         is left open then
     */
    ChannelFuture connect(EventLoop loop, SocketAddress remote, boolean domain, Consumer<ChannelPipeline> handlers) {
        Channel ch = io.newConnectingChannel(domain, c -> {
            int sendBufferBytes = domain ? LOCAL_SOCKET_SEND_BUFFER_BYTES : SEND_BUFFER_BYTES;
            if (sendBufferBytes > 0) {
                c.config().setOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
            }
            c.config().setConnectTimeoutMillis(config.connectTimeoutMs());
            c.config().setWriteBufferWaterMark(waterMark);
            c.config().setAllocator(sendAllocator);
            handlers.accept(c.pipeline());
        });
        return NettyIo.connect(loop, ch, remote);
    }

    /** Null if {@code hello} may connect, else why not. */
    String checkHello(Hello hello) {
        if (hello.getProtocolVersion() != WireProtocol.VERSION) {
            return "protocol version=" + hello.getProtocolVersion() + " (expected: " + WireProtocol.VERSION + ")";
        }
        if (!MessageDigest.isEqual(jobToken, hello.getJobToken().toByteArray())) {
            return "job token mismatch (a process of another job?)";
        }
        if (hello.getWorldSize() != size) {
            return "world size=" + hello.getWorldSize() + " (expected: " + size + ")";
        }
        if (hello.getRank() < 0 || hello.getRank() >= size) {
            return "rank=" + Integer.toUnsignedString(hello.getRank()) + " (expected: 0.." + (size - 1) + ")";
        }
        return null;
    }

    /**
     * Records {@code ch} as the one receive connection from {@code src}; else says why it may not
     * be. A peer that has said GOODBYE on this rank's send connection is still accepted: it may be
     * flushing its last frames to us over a connection it is only now opening.
     */
    String registerInbound(int src, Channel ch) {
        if (closed.get()) {
            return "rank " + rank + " is closing";
        }
        if (peerStates.get(src) == FAILED) {
            return "rank " + src + " was declared failed";
        }
        return inbound.compareAndSet(src, null, ch) ? null : "rank " + src + " has connected before";
    }

    /** The receive connection from {@code src} ended, after GOODBYE or not (event loop). */
    void onInboundClosed(int src, Channel ch, boolean goodbye, Throwable cause) {
        if (goodbye) {
            FrameSink s = sink;
            if (s != null) {
                s.onPeerLeft(src);
            }
            return;
        }
        String detail = cause == null ? "connection closed without goodbye" : cause.getMessage();
        IOException e = new IOException(owner + ": connection from rank " + src + " at " + NettyIo.peerOf(ch)
                + " lost: " + detail);
        if (cause != null) {
            e.initCause(cause);
        }
        peerLost(src, e);
    }

    void onPeerGoodbye(int peer) {
        peerStates.compareAndSet(peer, LIVE, SAID_GOODBYE);
    }

    boolean hasSaidGoodbye(int peer) {
        return peerStates.get(peer) == SAID_GOODBYE;
    }

    /** Reports {@code peer} as failed to the sink, once, unless it left cleanly or we are closing. */
    void peerLost(int peer, Throwable cause) {
        if (closed.get()) {
            return;
        }
        peerFailures.compareAndSet(peer, null, cause);
        if (!peerStates.compareAndSet(peer, LIVE, FAILED)) {
            return;
        }
        LOG.warn("{}: lost rank {}: {}", owner, peer, cause.getMessage());
        FrameSink s = sink;
        if (s != null) {
            try {
                s.onPeerFailed(peer, cause);
            } catch (RuntimeException e) {
                LOG.error("{}: frame sink threw in onPeerFailed({})", owner, peer, e);
            }
        }
    }

    @Override
    public String toString() {
        return "TcpTransport[" + owner + "/" + size + ", " + advertised + "]";
    }
}
