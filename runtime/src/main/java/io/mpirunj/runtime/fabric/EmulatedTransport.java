package io.mpirunj.runtime.fabric;

import io.mpirunj.runtime.comm.CommImpl;
import io.mpirunj.runtime.p2p.Payloads;
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
 * <p>Host lag: a message reaches its receiver some time after the model delivered it (the arbiter's
 * wake-up, hops between threads and, for processes, to the launcher's service and over TCP). When it
 * arrives, this rank's transport learns its model delivery time ({@link #expect}, before the message) and
 * pauses model time so it reads no later than that ({@link EmulatedFabric#arrived}): the lag is the
 * host's, and without this it was charged to every message (on a loaded host, tens of per cent of t_end
 * at 1 KB as processes). Not forgiven: the receiving thread's own wake-up after the message arrived.
 *
 * <p>Losses ({@code drop:A-B}): an eager message lost on a dropped link reaches the receiver as a
 * stand-in RTS (same context, tag and length, in the same order), so it matches the receive it would
 * have matched; the receiver's clear-to-send answer is not sent but fails, which fails exactly that
 * receive with a {@link io.mpirunj.RankFailedException} whose cause, a {@link LinkFailedException},
 * names the link. Nothing else between the two ranks is affected (a TTCC receiver takes the other
 * copy). A lost rendezvous DATA frame fails its send, and both ends see each other as failed (a broken
 * connection between them). Control frames (RTS, CTS, CREDIT) are not modelled and are never lost; nor are the
 * runtime's own exchanges (making communicators, Mpi.finish with ranks as threads, --coll-report, --check-collectives:
 * {@link CommImpl#isRuntimeExchange}), which pass straight on: a dropped link failed a correct program's Mpi.finish.
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
        this.arriving = new Arrivals[inner.size()];
        for (int p = 0; p < queues.length; p++) {
            queues[p] = new PeerQueue();
            arriving[p] = new Arrivals();
        }
        fabric.attach(this);
    }

    /**
     * Messages from one peer the arbiter has delivered, by model delivery time, in order, that have not
     * reached this rank yet; {@code early}: messages that reached it before the arbiter's word did (ranks
     * as processes: the word comes from the launcher's service, the message from the sender).
     */
    private static final class Arrivals {
        final ArrayDeque<Double> due = new ArrayDeque<>();
        int early;
    }

    private final Arrivals[] arriving;

    /** The arbiter delivered the next message from {@code src} to this rank at model time {@code at}. */
    void expect(int src, double at) {
        Arrivals a = arriving[src];
        synchronized (a) {
            if (a.early > 0) {
                a.early--;
            } else {
                a.due.add(at);
            }
        }
    }

    /** The next message from {@code src} reached this rank: model time catches up with its delivery. */
    private void arrived(int src) {
        Arrivals a = arriving[src];
        Double at;
        synchronized (a) {
            at = a.due.poll();
            if (at == null) {
                a.early++;
            }
        }
        if (at != null) {
            fabric.arrived(at);
        }
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
        /** Model time the arbiter delivered it at (NaN: not a message, or not told). */
        double at = Double.NaN;

        Held(Frame frame, ByteBuf payload, WriteListener listener) {
            this.frame = frame;
            this.payload = payload;
            this.listener = listener;
        }
    }

    @Override
    public void start(FrameSink sink) {
        this.sink = sink;
        inner.start(new FrameSink() {
            @Override
            public void onFrame(int src, Frame frame, ByteBuf payload) {
                if ((frame.kind() == FrameKind.EAGER || frame.kind() == FrameKind.DATA)
                        && !CommImpl.isRuntimeExchange(frame)) { // those pass unmodelled
                    arrived(src);
                }
                sink.onFrame(src, frame, payload);
            }

            @Override
            public io.mpirunj.Buffer dataTarget(int src, Frame frame) {
                return sink.dataTarget(src, frame);
            }

            @Override
            public void onDataStreamed(int src, Frame frame) {
                arrived(src);
                sink.onDataStreamed(src, frame);
            }

            @Override
            public void onPeerFailed(int peer, Throwable cause) {
                sink.onPeerFailed(peer, cause);
            }
            // onPeerLeft is not passed on: the peer's last frames may still be held for their modelled delivery
        });
    }

    @Override
    public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
        if (frame.kind() == FrameKind.CTS && frame.sendId() < 0) {
            // the answer to a lost message's stand-in RTS: fail the one receive that matched it
            if (payload != null) {
                payload.release();
            }
            onWritten.onWritten(fabric.takeLost(frame.sendId(), dst, rank()));
            return;
        }
        if (CommImpl.isRuntimeExchange(frame)) {
            super.send(dst, frame, payload, onWritten); // the runtime's own bookkeeping: not modelled traffic
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
            fabric.arbiter().submit(rank(), dst, frame.length(), frame.kind() == FrameKind.DATA, fabric.clock().nanoTime(),
                    new FabricArbiter.Outcome() {
                @Override
                public void delivered(double at) {
                    h.at = at;
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

    /**
     * Copied whole first, as {@link Transport}'s default does: a held frame carries a ByteBuf, and the
     * copy goes through {@link #send}, so the fabric sees it (the inner transport's converting send would not).
     */
    @Override
    public void sendConverting(int dst, Frame frame, io.mpirunj.Buffer src, WriteListener onWritten) {
        send(dst, frame, Payloads.copyOf(src, allocate(src.byteLength())), onWritten);
    }

    /**
     * False whatever the inner transport does: no streamed eager through the fabric. A lost eager message
     * must fail the receive that matches its stand-in RTS and nothing else, and a streamed eager send is
     * still pending when it is lost (its payload is the sender's memory), so the loss would fail it too.
     */
    @Override
    public boolean copiesPayloadBeforeCompletion() {
        return false;
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
                    if (!Double.isNaN(h.at)) {
                        fabric.delivering(rank(), dst, h.at); // before the frame, so the receiver expects it
                    }
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
