package io.mpirunj.runtime.fabric;

import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.ForwardingTransport;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A transport decorator that sends every message through an emulated fabric ({@link FabricArbiter}).
 * A message is one EAGER frame or one rendezvous DATA frame (the model charges one message, not the
 * RTS/CTS handshake): it is held until the arbiter delivers it. Control frames (RTS, CTS, CREDIT) cost
 * nothing, but wait behind the held messages to the same peer, so the frames to a peer still leave in
 * the order they were sent (MPI's non-overtaking order stays the engine's business).
 *
 * <p>Losses ({@code drop:A-B}): an eager message lost on a dropped link reaches the receiver as a
 * stand-in RTS (same context, tag and length, in the same order), so it matches the receive it would
 * have matched; the receiver's clear-to-send answer is not sent but fails, which fails exactly that
 * receive with a {@link io.mpirunj.RankFailedException} whose cause, a {@link LinkFailedException},
 * names the link. Nothing else between the two ranks is affected (a TTCC receiver takes the other
 * copy). A lost rendezvous DATA frame fails its send, and both ends see each other as failed (a broken
 * connection between them). Control frames (RTS, CTS, CREDIT) are not modelled and are never lost.
 */
final class EmulatedTransport extends ForwardingTransport {
    private final EmulatedFabric fabric;
    private final PeerQueue[] queues;
    private volatile FrameSink sink;
    /** Frames queued and not yet handed on (or failed); close waits for them. */
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    EmulatedTransport(Transport inner, EmulatedFabric fabric) {
        super(inner);
        this.fabric = fabric;
        this.queues = new PeerQueue[inner.size()];
        for (int p = 0; p < queues.length; p++) {
            queues[p] = new PeerQueue();
        }
        fabric.attach(this);
    }

    /** Frames to one peer in send order; {@code draining}: some thread is handing them to the inner transport. */
    private static final class PeerQueue {
        final ArrayDeque<Held> frames = new ArrayDeque<>();
        boolean draining;
        LinkFailedException down;
    }

    private static final class Held {
        final Frame frame;
        final ByteBuf payload;
        final WriteListener listener;
        boolean ready;
        LinkFailedException lost;

        Held(Frame frame, ByteBuf payload, WriteListener listener) {
            this.frame = frame;
            this.payload = payload;
            this.listener = listener;
        }
    }

    @Override
    public void start(FrameSink sink) {
        this.sink = sink;
        inner.start(sink);
    }

    @Override
    public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
        if (frame.kind() == FrameKind.CTS && frame.sendId() < 0) {
            // the answer to a lost message's stand-in RTS: fail the one receive that matched it
            if (payload != null) {
                payload.release();
            }
            onWritten.onWritten(fabric.takeLost(frame.sendId()));
            return;
        }
        Held h = new Held(frame, payload, onWritten);
        boolean message = frame.kind() == FrameKind.EAGER || frame.kind() == FrameKind.DATA;
        PeerQueue q = queues[dst];
        held.incrementAndGet();
        synchronized (q) {
            h.ready = !message;
            q.frames.add(h);
        }
        if (message) {
            fabric.arbiter().submit(rank(), dst, frame.length(), frame.kind() == FrameKind.DATA,
                    new FabricArbiter.Outcome() {
                @Override
                public void delivered(double at) {
                    ready(dst, q, h, null);
                }

                @Override
                public void lost(LinkFailedException cause) {
                    ready(dst, q, h, cause);
                    if (frame.kind() == FrameKind.DATA) {
                        fabric.linkFailed(rank(), dst, cause);
                    }
                }
            });
        } else {
            drain(dst, q);
        }
    }

    private void ready(int dst, PeerQueue q, Held h, LinkFailedException lost) {
        synchronized (q) {
            h.ready = true;
            h.lost = lost;
        }
        drain(dst, q);
    }

    /** Hands the ready frames at the head of {@code q} to the inner transport, one thread at a time, in order. */
    private void drain(int dst, PeerQueue q) {
        while (true) {
            Held h;
            LinkFailedException down;
            synchronized (q) {
                if (q.draining) {
                    return;
                }
                h = q.frames.peek();
                if (h == null || !h.ready) {
                    return;
                }
                q.frames.poll();
                if (h.lost != null && h.frame.kind() == FrameKind.DATA && q.down == null) {
                    q.down = h.lost;
                }
                down = q.down;
                q.draining = true;
            }
            try {
                if (down != null) {
                    // the link to this peer is down: nothing more gets through
                    if (h.payload != null) {
                        h.payload.release();
                    }
                    h.listener.onWritten(down);
                } else if (h.lost != null) {
                    // An eager message lost on the way: the receiver matches a stand-in RTS in its place
                    // (same context, tag, length, order) and fails exactly that receive when it answers.
                    if (h.payload != null) {
                        h.payload.release();
                    }
                    long standIn = fabric.registerLost(h.lost);
                    inner.send(dst, Frame.rts(h.frame.context(), h.frame.tag(), h.frame.length(), standIn), null,
                            WriteListener.NONE);
                    h.listener.onWritten(h.lost);
                } else {
                    inner.send(dst, h.frame, h.payload, h.listener);
                }
            } finally {
                synchronized (q) {
                    q.draining = false;
                }
                if (held.decrementAndGet() == 0 && closing.get()) {
                    synchronized (held) {
                        held.notifyAll();
                    }
                }
            }
        }
    }

    /** The link to {@code peer} went down: this rank's engine sees {@code peer} as failed. */
    void peerLost(int peer, LinkFailedException cause) {
        PeerQueue q = queues[peer];
        synchronized (q) {
            if (q.down == null) {
                q.down = cause;
            }
        }
        FrameSink s = sink;
        if (s != null) {
            s.onPeerFailed(peer, cause);
        }
    }

    /**
     * Closes once the messages this rank sent have left the emulated network (a rank that finishes right
     * after its last send must not take that message with it; a process exits right after): waits for
     * them, at most {@link #CLOSE_WAIT_MS}; then later sends fail.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        long deadline = System.nanoTime() + CLOSE_WAIT_MS * 1_000_000L;
        synchronized (held) {
            long left;
            while (held.get() > 0 && (left = deadline - System.nanoTime()) > 0) {
                try {
                    held.wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        closeInner();
    }

    /** How long {@link #close} waits for this rank's messages still in the emulated network. */
    static final long CLOSE_WAIT_MS = 60_000;

    private void closeInner() {
        if (closed.compareAndSet(false, true)) {
            fabric.detach(this);
            inner.close();
        }
    }
}
