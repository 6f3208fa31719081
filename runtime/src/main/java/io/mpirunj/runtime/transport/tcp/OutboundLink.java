package io.mpirunj.runtime.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending side of this rank's connection to one peer: a queue of {@link OutboundFrame}s and
 * the one connection they leave on, opened on the first send.
 *
 * <pre>
 *  IDLE ──first drain──► CONNECTING ──hello accepted──► READY ──closed (any reason)──► CLOSED
 *                            └──────── connect/handshake failed ─────────────────────────┘
 * </pre>
 *
 * <p>Threading, Aeron style: any thread may {@link #enqueue} (a lock-free multi-producer queue,
 * so frames leave in the order the calls linearized), which schedules one drain task on the link's
 * event loop. Everything else (state, channel, writes) is confined to that event loop, which is also
 * the channel's, so writes run synchronously and no lock is ever held around a callback.
 *
 * <p>CONNECTING tries the peer's Unix domain socket first when it is on this host
 * ({@link TcpTransport#localSocketOf}); if that connection fails before its Hello is sent (no such
 * socket, refused, another user's listener) or its listener answers with anything but an acceptance,
 * the link connects over TCP at once (unless it was abandoned). The peer's advertised
 * TCP address is the only one it then tries.
 *
 * <p>Frames queued while CONNECTING wait for READY. A drain writes at most
 * {@link #MAX_WRITES_PER_DRAIN} frames, flushes once, and stops early while the channel is above its
 * write-buffer high-water mark (resuming when it drains below the low mark); a large heap payload is
 * copied to native memory and written a chunk at a time under the same rule ({@link ChunkedPayload}).
 * When the link ends, every queued frame is failed (payload released, listener told why).
 */
final class OutboundLink {
    private static final Logger LOG = LoggerFactory.getLogger(OutboundLink.class);
    static final int MAX_WRITES_PER_DRAIN = 256;

    private enum State { IDLE, CONNECTING, READY, CLOSED }

    private final TcpTransport transport;
    private final int peer;
    private final EventLoop loop;
    private final Queue<OutboundFrame> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    /** Completes when the link is CLOSED. */
    private final Promise<Void> closed;
    /** The channel once READY, for tests and messages read off the event loop. */
    private volatile Channel readyChannel;

    // Confined to the event loop:
    private State state = State.IDLE;
    private Channel channel;
    /** True while {@link #channel} is a Unix domain socket connection that may still fall back to TCP. */
    private boolean mayFallBack;
    private boolean abandoned;
    private Throwable cause;
    private boolean closing;
    private boolean peerGoodbye;
    /** The payload being written in chunks, if any. */
    private ChunkedPayload streaming;

    OutboundLink(TcpTransport transport, int peer, EventLoop loop) {
        this.transport = transport;
        this.peer = peer;
        this.loop = loop;
        this.closed = loop.newPromise();
    }

    int peer() {
        return peer;
    }

    /** The connection once its handshake has completed, or null (any thread). */
    Channel readyChannel() {
        return readyChannel;
    }

    String owner() {
        return transport.owner();
    }

    /**
     * Queues {@code frame}; any thread, never blocks. The link now owns it. A thread that can take
     * the progress token of a {@link ProgressLoop} at once writes the frame itself (no hand-off).
     */
    void enqueue(OutboundFrame frame) {
        queue.offer(frame);
        if (loop instanceof ProgressLoop) {
            ProgressLoop driven = (ProgressLoop) loop;
            int entry = driven.enterForSend();
            if (entry != ProgressLoop.BUSY) {
                try {
                    drainNow();
                } finally {
                    if (entry == ProgressLoop.ENTERED) {
                        driven.exitDriving();
                    }
                }
                return;
            }
        }
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                loop.execute(drainTask);
            } catch (RejectedExecutionException e) {
                // The event loop is shutting down; TcpTransport.close() fails what is left queued.
                drainScheduled.set(false);
            }
        }
    }

    private void drain() {
        drainScheduled.set(false);
        drainNow();
    }

    /** Writes, connects or fails what is queued, as the state says (event loop). */
    private void drainNow() {
        switch (state) {
            case IDLE: connect(); break;
            case READY: write(true); break;
            case CLOSED: failQueued(closedCause()); break;
            default: break; // CONNECTING: onReady drains
        }
    }

    private void connect() {
        InetSocketAddress address = transport.addressOf(peer);
        if (address == null) {
            cause = new IllegalStateException(transport.owner() + ": no address for rank " + peer
                    + " (TcpTransport.setPeerAddresses was not called)");
            linkDown();
            return;
        }
        state = State.CONNECTING;
        DomainSocketAddress local = transport.localSocketOf(peer);
        if (local != null) {
            open(local, true);
        } else {
            open(address, false);
        }
    }

    /** Opens {@link #channel} to {@code remote}: a Unix domain socket ({@code domain}) or TCP (event loop). */
    private void open(SocketAddress remote, boolean domain) {
        mayFallBack = domain;
        ChannelFuture f;
        try {
            f = transport.connect(loop, remote, domain,
                    p -> p.addLast("handshake", new ConnectorHandshake(transport, this)));
        } catch (RuntimeException e) { // no channel could be made (out of file descriptors, say): a failed connect
            channel = null;
            recordCause(e);
            down();
            return;
        }
        Channel ch = f.channel();
        channel = ch;
        // epoll closes a channel whose connect fails at once before it fails the connect: the listener below,
        // which records why, then takes it down; a close while connecting always fails the connect too
        ch.closeFuture().addListener(c -> {
            if (f.isDone()) {
                channelDown(ch);
            }
        });
        f.addListener(c -> {
            if (!c.isSuccess()) {
                if (ch == channel) {
                    recordCause(c.cause());
                }
                channelDown(ch);
            }
        });
    }

    /**
     * {@code ch} failed to connect or closed (event loop). A domain socket connection that ended before its
     * Hello went out, or whose listener answered with no acceptance, gives way to TCP; otherwise the link is
     * down. Events of a channel given up on are ignored.
     */
    private void channelDown(Channel ch) {
        if (ch == channel) {
            down();
        }
    }

    /** The connection {@link #channel} (null: none could be made) is down: take TCP if it may, else the link is down. */
    private void down() {
        if (mayFallBack && state == State.CONNECTING && !abandoned) {
            mayFallBack = false;
            LOG.debug("{}: no same-host path to rank {} ({}): connecting over TCP", transport.owner(), peer,
                    cause == null ? "closed before the handshake completed" : cause.toString());
            cause = null;
            Channel old = channel;
            channel = null; // its close, perhaps right here on the loop, must not take the link down
            if (old != null) {
                old.close();
            }
            open(transport.addressOf(peer), false);
            return;
        }
        linkDown();
    }

    /**
     * The Hello went out on {@code ch} (event loop). From here the acceptor may have taken the connection as this
     * rank's, and a connection it loses without goodbye counts as this rank lost: a timeout or a close now ends
     * the link as over TCP; only an answer that is no acceptance ({@link #onAnsweredNotAccepted}) still lets a
     * same-host connection give way to TCP.
     */
    void onHelloSent(Channel ch) {
        if (ch == channel) {
            mayFallBack = false;
        }
    }

    /**
     * {@code ch}'s listener answered the Hello with a refusal, another rank or garbage (event loop): on the
     * same-host path perhaps another job's listener at the peer's socket name, so TCP may still reach the peer.
     */
    void onAnsweredNotAccepted(Channel ch) {
        if (ch == channel && state == State.CONNECTING && NettyIo.isDomain(ch)) {
            mayFallBack = true;
        }
    }

    /** The handshake succeeded (event loop). */
    void onReady(Channel ch) {
        if (state != State.CONNECTING || ch != channel) {
            return;
        }
        state = State.READY;
        mayFallBack = false;
        readyChannel = ch;
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: sending to rank {} over {}", transport.owner(), peer, NettyIo.isDomain(ch)
                    ? "the same-host path (" + NettyIo.peerOf(ch) + ")" : "TCP to " + ch.remoteAddress());
        }
        if (closing) {
            sayGoodbye();
        } else {
            write(true);
        }
    }

    /** The channel can take writes again (event loop). */
    void onWritable() {
        if (state == State.READY && !closing) {
            write(true);
        }
    }

    /** The peer sent GOODBYE: it is closing its transport (event loop). */
    void onGoodbye() {
        peerGoodbye = true;
        transport.onPeerGoodbye(peer);
    }

    /** Remembers the first known reason the connection failed (event loop). */
    void recordCause(Throwable t) {
        if (cause == null) {
            cause = t;
        }
    }

    /**
     * Writes queued frames, then flushes; {@code bounded}: at most {@link #MAX_WRITES_PER_DRAIN} writes
     * and only while the channel is writable. A large heap payload goes a chunk per write
     * ({@link ChunkedPayload}); nothing else is written until its last chunk.
     */
    private void write(boolean bounded) {
        int written = 0;
        while (!bounded || written < MAX_WRITES_PER_DRAIN && channel.isWritable()) {
            if (streaming != null) {
                if (!writeChunk()) {
                    return; // the channel is closing
                }
            } else {
                OutboundFrame f = queue.poll();
                if (f == null) {
                    break;
                }
                if (f.wantsChunks()) {
                    streaming = new ChunkedPayload(f);
                    FrameEncoder.write(channel, f, channel.voidPromise()); // its prefix; a failure closes the link
                } else {
                    FrameEncoder.write(channel, f, f.wantsCompletion() ? channel.newPromise().addListener(f)
                            : channel.voidPromise());
                }
            }
            written++;
        }
        if (written > 0) {
            channel.flush();
        }
        if (bounded && written == MAX_WRITES_PER_DRAIN && (streaming != null || !queue.isEmpty())) {
            scheduleDrain(); // let the loop serve other channels, then carry on
        }
    }

    /** Writes the next chunk of {@link #streaming}; false if native memory ran out (the link then closes). */
    private boolean writeChunk() {
        try {
            if (streaming.writeNext(channel)) {
                streaming = null;
            }
            return true;
        } catch (RuntimeException | OutOfMemoryError e) {
            // The frame is cut short on the wire, so the connection cannot carry another one.
            recordCause(e);
            failStreaming(e);
            channel.close();
            return false;
        }
    }

    private void failStreaming(Throwable why) {
        ChunkedPayload s = streaming;
        if (s != null) {
            streaming = null;
            s.fail(why);
        }
    }

    /**
     * Starts closing the link for {@link TcpTransport#close()} (any thread): frames already queued
     * are still written, then GOODBYE; the link is closed once the peer closes the connection in
     * answer (or the transport gives up waiting). Returns the closed future.
     */
    Future<Void> close() {
        try {
            loop.execute(() -> {
                closing = true;
                switch (state) {
                    case IDLE: linkDown(); break;
                    case READY: sayGoodbye(); break;
                    default: break; // CONNECTING: onReady says goodbye, or the connection fails
                }
            });
        } catch (RejectedExecutionException e) {
            closed.tryFailure(e);
        }
        return closed;
    }

    /** The peer is known dead: drop the connection (any thread); queued frames fail with {@code why}. */
    void abandon(Throwable why) {
        try {
            loop.execute(() -> {
                recordCause(why);
                abandoned = true;
                if (channel != null) {
                    channel.close(); // linkDown follows from the close future
                } else {
                    linkDown();
                }
            });
        } catch (RejectedExecutionException e) {
            closed.tryFailure(e); // the loops are stopping: close() fails what is queued
        }
    }

    private void sayGoodbye() {
        write(false);
        ByteBuf goodbye = channel.alloc().buffer(FrameHeaderCodec.GOODBYE_FRAME_BYTES);
        FrameHeaderCodec.writeGoodbye(goodbye);
        channel.writeAndFlush(goodbye);
    }

    /** The connection is gone or never came (event loop; idempotent). */
    private void linkDown() {
        if (state == State.CLOSED) {
            return;
        }
        peerGoodbye |= transport.hasSaidGoodbye(peer);
        boolean lost = !closing && !peerGoodbye;
        if (closing && (cause != null || !queue.isEmpty())) {
            // Not the peer's answer to our goodbye: what it had not yet read may be lost.
            LOG.warn("{}: connection to rank {} ended while closing, before rank {} confirmed it read every frame: {}",
                    transport.owner(), peer, peer, cause == null ? "frames were still queued" : cause.toString());
        }
        state = State.CLOSED;
        Throwable why = closedCause();
        failStreaming(why);
        failQueued(why);
        if (lost) {
            transport.peerLost(peer, why);
        }
        closed.trySuccess(null);
    }

    private Throwable closedCause() {
        if (closing) {
            return new IOException(transport.owner() + ": transport closed");
        }
        if (peerGoodbye) {
            return new IOException(transport.owner() + ": rank " + peer + " has closed its transport");
        }
        String where = channel != null && channel.remoteAddress() != null ? NettyIo.peerOf(channel)
                : String.valueOf(transport.addressOf(peer));
        if (cause instanceof IllegalStateException) {
            return cause;
        }
        String detail = cause == null ? "connection closed without goodbye" : describe(cause);
        IOException e = new IOException(transport.owner() + ": connection to rank " + peer + " at " + where
                + " lost: " + detail);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }

    /**
     * {@code t} in words: its message, or where the system gave none (Netty annotates such an error with the
     * address as "null: address"), the kind of error (e.g. {@code NoRouteToHostException}).
     */
    private static String describe(Throwable t) {
        Throwable told = t.getCause() != null && String.valueOf(t.getMessage()).startsWith("null: ") ? t.getCause() : t;
        return told.getMessage() != null ? told.getMessage() : told.getClass().getSimpleName();
    }

    /** Fails every queued frame with {@code why}. Event loop, or any thread once the loop has terminated. */
    void failQueued(Throwable why) {
        OutboundFrame f;
        while ((f = queue.poll()) != null) {
            f.fail(why);
        }
    }
}
