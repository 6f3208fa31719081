package io.mpirunj.runtime.p2p;

import io.mpirunj.AbortedException;
import io.mpirunj.Buffer;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.TruncationException;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.Transport;
import io.mpirunj.runtime.transport.TransportProgress;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's point-to-point engine: MPI matching and the eager/rendezvous protocols, on top of a
 * {@link Transport}. Ranks here are world ranks; communicators translate.
 *
 * <p>Matching: a message matches the oldest posted receive with the same context whose source and
 * tag equal the message's or are wildcards; a receive matches the oldest queued unexpected message
 * the same way. Since a transport delivers one peer's frames in order, messages between one pair
 * on one context and tag never overtake each other.
 *
 * <p>Protocols: messages up to the eager limit are copied and sent at once (the send completes
 * after the copy). Larger ones send an RTS; the receiver answers CTS once a receive matches, and
 * only then does the payload move, straight from the sender's memory when its layout allows. So
 * unexpected large messages cost the receiver a header each, never their size.
 *
 * <p>Streamed eager: over a transport that copies a payload out before it reports it written (sockets,
 * {@link Transport#copiesPayloadBeforeCompletion}), a message above the eager limit but up to half the
 * credit ({@code -Dmpirunj.eager.streamLimit}) goes as an EAGER frame while the credit lasts, written
 * straight from the sender's memory; its send completes once written. That saves the RTS/CTS round
 * trip, and the credit bounds it like any eager message. A receiver whose receive is already posted
 * when the frame's header arrives matches it then ({@link #dataTarget}) and the transport streams the
 * payload into the user's buffer, as for DATA.
 *
 * <p>Eager flow control: a sender holds per peer a credit of {@code eagerCreditBytes}; an eager send
 * of n bytes takes n + {@link #EAGER_OVERHEAD_BYTES} from it, and when the credit is short the message
 * goes by rendezvous instead (same order: the receiver queues an RTS like an eager message). The
 * receiver gives the bytes back in CREDIT frames, in batches of a quarter of the credit, as it
 * matches eager messages. So a peer's unmatched eager bytes at this rank never exceed the credit,
 * and floods of unexpected messages cost bounded memory at both ends. Sends to self take no credit.
 *
 * <p>Failure: when a peer fails ({@link #onPeerFailed}, from the transport or the launcher), every
 * pending and later operation that depends on it fails with a {@link RankFailedException} naming it:
 * receives from it, ANY_SOURCE receives on communicators that contain it, rendezvous transfers with
 * it, and every operation on a <em>collective</em> context ({@link #isCollectiveContext}) of a
 * communicator that contains it, since a collective's progress on any member may wait on any
 * other (a rank waiting on a live parent in a broadcast tree would otherwise wait for a parent that
 * itself waits for the dead rank).
 *
 * <p>Threading: every method is thread-safe. State is guarded by one lock, which is never held
 * while calling the transport, copying payloads or completing requests (those may re-enter this
 * engine, or another rank's in-JVM, on the same thread).
 */
public final class P2pEngine implements FrameSink {
    /** Wildcard source or tag. */
    public static final int ANY = -1;
    /**
     * The tag of the messages ranks as threads exchange as Mpi.finish's fence (on a communicator's collective
     * context): sent after the ranks' counts were given ({@link #onPeerInFinish}), so counted on neither side.
     */
    public static final int FINISH_FENCE_TAG = Integer.MAX_VALUE - 3;

    /** Largest streamed eager send (bytes); default half the eager credit. */
    public static final String STREAM_LIMIT_PROP = "mpirunj.eager.streamLimit";

    /** What an eager message costs in credit beyond its payload: its queue entry and header. */
    public static final int EAGER_OVERHEAD_BYTES = 64;

    private static final Logger LOG = LoggerFactory.getLogger(P2pEngine.class);

    private final int rank;
    private final Transport transport;
    private final int eagerLimitBytes;
    /** Streamed eager sends: up to this many bytes (0: none); see the class comment. */
    private final int streamedEagerLimitBytes;
    /** Per peer: the receive an EAGER payload from it is being streamed into, matched at its header. */
    private final RecvRequest[] eagerStreams;
    /** Per peer: eager bytes (with overhead) this rank may still send before the peer returns credit. */
    private final AtomicLongArray eagerCredit;
    /** Matched eager bytes are returned to their sender once this many have accumulated. */
    private final long creditBatchBytes;
    /** How threads wait for this engine's requests. */
    private final WaitPolicy waiting;

    private final Object lock = new Object();
    private final MatchingQueues queues;
    /**
     * Copied on write (under {@link #hooksLock}) into a plain array, so that waiters, which run the
     * hooks at every turn of their spin, iterate without allocating (a list iterator each turn did).
     */
    private volatile ProgressHook[] progressHooks = new ProgressHook[0];
    private final Object hooksLock = new Object();
    private final Map<Long, SendRequest> awaitingCts = new HashMap<>();
    private final Map<Long, RecvRequest> awaitingData = new HashMap<>();
    private final Throwable[] failedPeers;
    /** Per peer: eager bytes (with overhead) matched here and not yet returned to it as credit. */
    private final long[] creditOwed;
    /** Payload bytes of the eager messages among the unexpected ones in {@link #queues}. */
    private long unexpectedEagerBytes;
    /** Number of non-null entries in {@link #failedPeers}: the common case (none) costs one test. */
    private int failedCount;
    private RuntimeException abortCause;
    /**
     * Set (under the lock, never cleared) once {@link #abortCause}, {@link #closed} or a {@link #failedPeers}
     * entry is set: while false no operation can fail at start, so eager sends skip the lock.
     */
    private volatile boolean degraded;
    private long nextSendId = 1;
    private long nextRecvId = 1;
    private int probers;
    private boolean closed;
    /**
     * The messages this rank started sending: at {@code 2 * destination} the point-to-point ones, at
     * {@code 2 * destination + 1} the collective ones. Mpi.finish's fence sums the collective ones, and the other
     * ranks learn from the totals when everything a rank in Mpi.finish sent them has arrived.
     */
    private final AtomicLongArray sent;
    /** The collective messages that have arrived here (matched or queued). */
    private long collectiveArrived;
    /** Per source, the messages that have arrived here (matched or queued; lock held). */
    private final long[] arrivedFrom;
    /**
     * Per peer, how many messages it had sent this rank when it entered Mpi.finish, or -1 while it has not (lock
     * held); null until some peer has. Once that many have arrived, a receive only that peer could match can never
     * complete ({@link #departed}).
     */
    private long[] sentBeforeFinish;
    /** This rank is in Mpi.finish itself: its own last receives (the fence) are not judged by its peers' finish. */
    private boolean finishing;

    public P2pEngine(int rank, int size, Transport transport, int eagerLimitBytes, int eagerCreditBytes,
            WaitPolicy waiting) {
        this.rank = rank;
        this.transport = transport;
        this.eagerLimitBytes = eagerLimitBytes;
        this.streamedEagerLimitBytes = transport.copiesPayloadBeforeCompletion()
                ? RuntimeConfig.intProperty(STREAM_LIMIT_PROP, eagerCreditBytes / 2, 0) : 0;
        this.eagerStreams = new RecvRequest[size];
        this.waiting = waiting.drivingProgressOf(this, transport.progress());
        this.failedPeers = new Throwable[size];
        this.queues = new MatchingQueues(size);
        this.eagerCredit = new AtomicLongArray(size);
        for (int p = 0; p < size; p++) {
            eagerCredit.set(p, eagerCreditBytes);
        }
        this.creditOwed = new long[size];
        this.creditBatchBytes = Math.max(1, eagerCreditBytes / 4);
        this.sent = new AtomicLongArray(2 * size);
        this.arrivedFrom = new long[size];
    }

    /** How threads wait for this engine's requests. */
    public WaitPolicy waitPolicy() {
        return waiting;
    }

    /** Runs {@code hook} whenever a thread waits on this engine (see {@link ProgressHook}). */
    public void addProgressHook(ProgressHook hook) {
        Objects.requireNonNull(hook, "hook");
        synchronized (hooksLock) {
            ProgressHook[] now = Arrays.copyOf(progressHooks, progressHooks.length + 1);
            now[now.length - 1] = hook;
            progressHooks = now;
        }
    }

    public void removeProgressHook(ProgressHook hook) {
        synchronized (hooksLock) {
            ProgressHook[] was = progressHooks;
            for (int i = 0; i < was.length; i++) {
                if (was[i].equals(hook)) {
                    ProgressHook[] now = new ProgressHook[was.length - 1];
                    System.arraycopy(was, 0, now, 0, i);
                    System.arraycopy(was, i + 1, now, i, was.length - i - 1);
                    progressHooks = now;
                    return;
                }
            }
        }
    }

    /** Runs every progress hook once; true if one did anything. */
    public boolean progress() {
        boolean any = false;
        for (ProgressHook h : progressHooks) {
            any |= h.progress();
        }
        return any;
    }

    boolean hasProgressHooks() {
        return progressHooks.length > 0;
    }

    /** Credit an eager message of {@code len} payload bytes takes. */
    private static long eagerCharge(int len) {
        return (long) len + EAGER_OVERHEAD_BYTES;
    }

    /** Takes {@code charge} from the credit towards {@code dst}; false (taking nothing) if it is short. */
    private boolean takeCredit(int dst, long charge) {
        while (true) {
            long have = eagerCredit.get(dst);
            if (have < charge) {
                return false;
            }
            if (eagerCredit.compareAndSet(dst, have, have - charge)) {
                return true;
            }
        }
    }

    /**
     * Records that an eager message of {@code len} bytes from {@code src} was matched; returns the
     * credit to send back to it now (a batch), or 0 (lock held).
     */
    private int owe(int src, int len) {
        if (src == rank) {
            return 0;
        }
        long owed = creditOwed[src] + eagerCharge(len);
        if (owed < creditBatchBytes) {
            creditOwed[src] = owed;
            return 0;
        }
        creditOwed[src] = 0;
        return (int) owed;
    }

    private void returnCredit(int src, int bytes) {
        if (bytes > 0) {
            emit(src, Frame.credit(bytes), null, Transport.WriteListener.NONE);
        }
    }

    /** Payload bytes of eager messages received here and not yet matched by a receive. */
    public long unexpectedEagerBytes() {
        synchronized (lock) {
            return unexpectedEagerBytes;
        }
    }

    /**
     * True for the context ids that carry collectives: communicators take context ids in pairs, the
     * even one for user point-to-point and the odd one ({@code context + 1}) for collectives.
     */
    public static boolean isCollectiveContext(int context) {
        return (context & 1) != 0;
    }

    // ---- operations ------------------------------------------------------------------------------

    public Request isend(Buffer buf, int dstWorld, int context, int tag, Group group) {
        SendRequest req = new SendRequest(buf, dstWorld, context, tag, group, waiting);
        if (tag != FINISH_FENCE_TAG) {
            sent.incrementAndGet(2 * dstWorld + (context & 1));
        }
        int len = buf.byteLength();
        boolean streamed = len > eagerLimitBytes && len <= streamedEagerLimitBytes && dstWorld != rank;
        if (len > eagerLimitBytes && !streamed) {
            return rendezvous(req, dstWorld, context, tag, group, len);
        }
        if (degraded) {
            RuntimeException err;
            synchronized (lock) {
                err = peerError(dstWorld, context, group, req);
            }
            if (err != null) {
                req.fail(err);
                return req;
            }
        }
        if (dstWorld != rank && !takeCredit(dstWorld, eagerCharge(len))) {
            return rendezvous(req, dstWorld, context, tag, group, len); // the peer is behind: hold the data here
        }
        ByteBuf payload = null;
        try {
            if (streamed) {
                // The payload is the user's memory: the send completes once the transport has written it.
                emitUserBuffer(dstWorld, Frame.eager(context, tag, len), buf, cause -> completeSend(req, dstWorld, cause));
                return req;
            }
            payload = Payloads.copyOf(buf, transport.allocate(len));
        } catch (OutOfMemoryError e) {
            if (dstWorld != rank) {
                eagerCredit.addAndGet(dstWorld, eagerCharge(len));
            }
            throw outOfMemory(req, e);
        }
        emit(dstWorld, Frame.eager(context, tag, len), payload, Transport.WriteListener.NONE);
        // The user's buffer is free once copied: MPI's eager completion.
        req.complete(sentStatus(req));
        return req;
    }

    private void completeSend(SendRequest s, int dst, Throwable cause) {
        if (cause == null) {
            s.complete(sentStatus(s));
        } else {
            s.fail(peerFailure(dst, cause, s));
        }
    }

    private SendRequest rendezvous(SendRequest req, int dstWorld, int context, int tag, Group group, int len) {
        RuntimeException err;
        long id;
        synchronized (lock) {
            err = degraded ? peerError(dstWorld, context, group, req) : null;
            id = nextSendId++;
            if (err == null) {
                awaitingCts.put(id, req);
            }
        }
        if (err != null) {
            req.fail(err);
            return req;
        }
        emit(dstWorld, Frame.rts(context, tag, len, id), null, cause -> {
            if (cause != null) {
                SendRequest s;
                synchronized (lock) {
                    s = awaitingCts.remove(id);
                }
                if (s != null) {
                    s.fail(peerFailure(dstWorld, cause, s));
                }
            }
        });
        return req;
    }

    public Request irecv(Buffer buf, int srcWorld, int context, int tag, Group group) {
        RecvRequest req = new RecvRequest(buf, srcWorld, context, tag, group, waiting);
        Incoming in;
        long recvId = 0;
        int credit = 0;
        RuntimeException err = null;
        synchronized (lock) {
            in = queues.takeUnexpected(srcWorld, context, tag);
            if (in == null) {
                err = recvError(srcWorld, context, group, req);
                if (err == null) {
                    queues.post(req);
                    return req;
                }
            } else if (in.isRts() && degraded && (err = peerError(in.src(), context, group, req)) != null) {
                // the sender failed after its RTS arrived: its data will never come, and the failure
                // notice has already gone by (it fails only operations pending at that moment)
            } else {
                req.matched(in.src(), in.tag(), in.length());
                if (in.isRts()) {
                    recvId = nextRecvId++;
                    awaitingData.put(recvId, req);
                } else {
                    unexpectedEagerBytes -= in.length();
                    credit = owe(in.src(), in.length());
                }
            }
        }
        if (err != null) {
            req.fail(err);
        } else if (in.isRts()) {
            sendCts(in.src(), in.sendId(), recvId);
        } else {
            returnCredit(in.src(), credit);
            deliver(req, in.payload());
        }
        return req;
    }

    private MpiException outOfMemory(Object what, OutOfMemoryError e) {
        return new MpiException("rank " + rank + ": out of memory in " + what + " (" + e.getMessage() + ")", e);
    }

    /** The status of the oldest matching unexpected message, or null. */
    public Status iprobe(int srcWorld, int context, int tag, Group group) {
        synchronized (lock) {
            return probeLocked(srcWorld, context, tag, group);
        }
    }

    /** Blocks until a matching message is queued and returns its status, or throws if none can come. */
    public Status probe(int srcWorld, int context, int tag, Group group) {
        synchronized (lock) {
            probers++;
            try {
                while (true) {
                    Status s = probeLocked(srcWorld, context, tag, group);
                    if (s != null) {
                        return s;
                    }
                    RuntimeException err = recvError(srcWorld, context, group, "probe");
                    if (err != null) {
                        throw err;
                    }
                    try {
                        waitForMessage();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new MpiException("interrupted in probe on rank " + rank);
                    }
                }
            } finally {
                probers--;
            }
        }
    }

    /** Waits (lock held) until a message is queued or an operation fails; someone else drives the I/O. */
    private void waitForMessage() throws InterruptedException {
        TransportProgress io = waiting.io();
        if (io == null) {
            lock.wait();
            return;
        }
        io.beginPassiveWait();
        try {
            lock.wait();
        } finally {
            io.endPassiveWait();
        }
    }

    private Status probeLocked(int srcWorld, int context, int tag, Group group) {
        Incoming in = queues.peekUnexpected(srcWorld, context, tag);
        return in == null ? null : new Status(group.rankOf(in.src()), in.tag(), in.length(), 1);
    }

    // ---- inbound -----------------------------------------------------------------------------------

    @Override
    public void onFrame(int src, Frame frame, ByteBuf payload) {
        switch (frame.kind()) {
            case EAGER:
            case RTS:
                onMessage(src, frame, payload);
                break;
            case CTS:
                release(payload);
                onCts(src, frame);
                break;
            case DATA:
                onData(src, frame, payload);
                break;
            case CREDIT:
                release(payload);
                eagerCredit.addAndGet(src, frame.length());
                break;
            default:
                release(payload);
                throw new IllegalStateException("unhandled frame " + frame);
        }
    }

    private void onMessage(int src, Frame frame, ByteBuf payload) {
        boolean rts = frame.kind() == FrameKind.RTS;
        RecvRequest req;
        long recvId = 0;
        int credit = 0;
        List<RecvRequest> doomed;
        synchronized (lock) {
            if (closed) {
                release(payload);
                return;
            }
            countArrival(src, frame);
            req = queues.takePosted(src, frame.context(), frame.tag());
            if (req == null) {
                queues.addUnexpected(src, frame, rts ? null : payload);
                if (!rts) {
                    unexpectedEagerBytes += frame.length();
                }
                if (probers > 0) {
                    lock.notifyAll();
                }
            } else {
                req.matched(src, frame.tag(), frame.length());
                if (rts) {
                    recvId = nextRecvId++;
                    awaitingData.put(recvId, req);
                } else {
                    credit = owe(src, frame.length());
                }
            }
            doomed = doomedBy(src);
        }
        failDoomed(doomed);
        if (req == null) {
            return;
        }
        if (rts) {
            sendCts(src, frame.sendId(), recvId);
        } else {
            returnCredit(src, credit);
            deliver(req, payload);
        }
    }

    private void onCts(int src, Frame frame) {
        SendRequest s;
        synchronized (lock) {
            s = awaitingCts.remove(frame.sendId());
        }
        if (s == null) {
            LOG.warn("rank {}: CTS from rank {} for unknown send id {}; ignored", rank, src, frame.sendId());
            return;
        }
        try {
            emitUserBuffer(src, Frame.data(frame.recvId(), s.buf.byteLength()), s.buf, cause -> completeSend(s, src, cause));
        } catch (OutOfMemoryError e) {
            s.fail(outOfMemory(s, e));
        }
    }

    private void onData(int src, Frame frame, ByteBuf payload) {
        RecvRequest r;
        synchronized (lock) {
            r = awaitingData.remove(frame.recvId());
        }
        if (r == null) {
            release(payload);
            LOG.warn("rank {}: DATA from rank {} for unknown receive id {}; dropped", rank, src, frame.recvId());
            return;
        }
        deliver(r, payload);
    }

    @Override
    public Buffer dataTarget(int src, Frame frame) {
        synchronized (lock) {
            if (frame.kind() == FrameKind.EAGER) {
                return eagerTarget(src, frame);
            }
            RecvRequest r = awaitingData.get(frame.recvId());
            return r == null ? null : r.buf;
        }
    }

    /** An EAGER frame's header: matches a posted receive now and streams into it, or null (lock held). */
    private Buffer eagerTarget(int src, Frame frame) {
        if (closed || eagerStreams[src] != null) {
            return null;
        }
        RecvRequest req = queues.takePosted(src, frame.context(), frame.tag());
        if (req == null) {
            return null; // unexpected: assembled and queued by onFrame
        }
        countArrival(src, frame); // what this arrival dooms is judged when it has streamed in (onDataStreamed)
        req.matched(src, frame.tag(), frame.length());
        eagerStreams[src] = req;
        return req.buf;
    }

    @Override
    public void onDataStreamed(int src, Frame frame) {
        RecvRequest r;
        int credit = 0;
        List<RecvRequest> doomed = null;
        synchronized (lock) {
            if (frame.kind() == FrameKind.EAGER) {
                r = eagerStreams[src];
                eagerStreams[src] = null;
                if (r != null) {
                    credit = owe(src, frame.length());
                }
                doomed = doomedBy(src); // its arrival was counted at its header (eagerTarget)
            } else {
                r = awaitingData.remove(frame.recvId());
            }
        }
        failDoomed(doomed);
        if (r != null) {
            returnCredit(src, credit);
            completeRecv(r);
        }
    }

    /** Copies an eager or DATA payload into the receive buffer, releases it, completes the receive. */
    private void deliver(RecvRequest r, ByteBuf payload) {
        try {
            Payloads.copyInto(payload, r.buf);
        } finally {
            release(payload);
        }
        completeRecv(r);
    }

    private void completeRecv(RecvRequest r) {
        if (r.messageBytes > r.buf.byteLength()) {
            r.fail(new TruncationException("message of " + r.messageBytes + " bytes from rank "
                    + r.group.rankOf(r.matchedSrcWorld) + " (tag " + r.matchedTag + ") truncated into a buffer of "
                    + r.buf.byteLength() + " bytes on rank " + r.group.rankOf(rank)));
        } else {
            r.complete(null); // RecvRequest.successStatus, built when asked
        }
    }

    /** What a send completes with: null, for SendRequest.successStatus to build when asked. */
    private static Status sentStatus(SendRequest s) {
        return null;
    }

    private void sendCts(int src, long sendId, long recvId) {
        emit(src, Frame.cts(sendId, recvId), null, cause -> {
            if (cause != null) {
                RecvRequest r;
                synchronized (lock) {
                    r = awaitingData.remove(recvId);
                }
                if (r != null) {
                    r.fail(peerFailure(src, cause, r));
                }
            }
        });
    }

    /**
     * Sends {@code buf} itself as {@code frame}'s payload, never copied whole on the way to the network:
     * wrapped when its memory is in the wire layout, else converted by the transport as it writes
     * (a copy only for a frame to ourselves). Throws OutOfMemoryError if a copy cannot be had (nothing sent).
     */
    private void emitUserBuffer(int dst, Frame frame, Buffer buf, Transport.WriteListener listener) {
        ByteBuf wrapped = Payloads.wrapped(buf);
        if (wrapped == null && dst != rank) {
            transport.sendConverting(dst, frame, buf, listener);
        } else {
            emit(dst, frame, wrapped != null ? wrapped : Payloads.copyOf(buf, transport.allocate(buf.byteLength())),
                    listener);
        }
    }

    /** Frames to ourselves never touch the transport. */
    private void emit(int dst, Frame frame, ByteBuf payload, Transport.WriteListener listener) {
        if (dst == rank) {
            onFrame(rank, frame, payload);
            listener.onWritten(null);
        } else {
            transport.send(dst, frame, payload, listener);
        }
    }

    // ---- failures ------------------------------------------------------------------------------------

    /** Why no operation can start on this engine (aborted or closed), or null (lock held). */
    private RuntimeException startError(Object what) {
        if (abortCause instanceof AbortedException) {
            return abortCause; // its exit code decides how the rank ends
        }
        if (closed) {
            // made here, so its stack trace shows the call made after the close (close's own cause shows the close)
            return new MpiException("rank " + rank + " has finished; cannot start " + what);
        }
        return abortCause;
    }

    /** Why an operation with world rank {@code peerWorld} on {@code context} cannot start, or null (lock held). */
    private RuntimeException peerError(int peerWorld, int context, Group group, Object what) {
        RuntimeException err = startError(what);
        if (err != null || failedCount == 0) {
            return err;
        }
        Throwable dead = failedPeers[peerWorld];
        if (dead != null) {
            return peerFailure(peerWorld, dead, what);
        }
        return isCollectiveContext(context) ? memberFailure(group, what) : null;
    }

    /** As {@link #peerError}, but an ANY_SOURCE receive fails once any member of {@code group} has (lock held). */
    private RuntimeException recvError(int srcWorld, int context, Group group, Object what) {
        RuntimeException err;
        if (srcWorld != ANY) {
            err = peerError(srcWorld, context, group, what);
        } else {
            err = startError(what);
            if (err == null && failedCount != 0) {
                err = memberFailure(group, what);
            }
        }
        return err != null || !doomed(srcWorld) ? err : departureFailure(srcWorld, context, what);
    }

    /**
     * True if a receive from {@code srcWorld} can never be matched: that rank is in Mpi.finish and all it sent this
     * rank has arrived (lock held). Never an ANY_SOURCE receive (this rank may still send to itself), nor while this
     * rank is in Mpi.finish itself.
     */
    private boolean doomed(int srcWorld) {
        return sentBeforeFinish != null && !finishing && srcWorld != ANY && departed(srcWorld);
    }

    /** {@code peer} is in Mpi.finish and everything it sent this rank has arrived (lock held, counts known). */
    private boolean departed(int peer) {
        long before = sentBeforeFinish[peer];
        return before >= 0 && arrivedFrom[peer] >= before;
    }

    /** Why {@code what}, a receive or probe from {@code srcWorld} on {@code context}, fails: {@link #doomed}. */
    private MpiException departureFailure(int srcWorld, int context, Object what) {
        String sender = "rank " + srcWorld + " (world)";
        String waiting = isCollectiveContext(context)
                ? "a collective call waits for a message from " + sender + " that can never come"
                : what + " can never complete";
        return new MpiException("rank " + rank + ": " + waiting + ": " + sender + " is in Mpi.finish and every message "
                + "it sent to rank " + rank + " has arrived (a " + (isCollectiveContext(context) ? "collective" : "send")
                + " it never made? or Mpi.finish in a finally block, reached while an exception passed through it?)");
    }

    /**
     * The posted receives that can never complete now that {@code peer} may have nothing more for this rank, taken
     * out of the queues to be failed ({@link #failDoomed}) once the lock is released; null if none (lock held).
     */
    private List<RecvRequest> doomedBy(int peer) {
        if (!doomed(peer)) {
            return null;
        }
        if (probers > 0) {
            lock.notifyAll(); // a blocking probe from it judges again
        }
        List<RecvRequest> out = new ArrayList<>();
        queues.drainPosted(r -> r.srcWorld == peer, out);
        return out.isEmpty() ? null : out;
    }

    private void failDoomed(List<RecvRequest> doomed) {
        if (doomed != null) {
            for (RecvRequest r : doomed) {
                r.fail(departureFailure(r.srcWorld, r.context, r));
            }
        }
    }

    /**
     * {@code peer} is in Mpi.finish, having sent this rank {@code sentHere} counted messages (all but those of the
     * fence itself, {@link #FINISH_FENCE_TAG}): once they have arrived, a receive from it fails instead of waiting for
     * ever (a rank that left its last calls unmade, or called Mpi.finish from a {@code finally} block while an
     * exception went by). Told once per peer.
     */
    public void onPeerInFinish(int peer, long sentHere) {
        List<RecvRequest> doomed;
        synchronized (lock) {
            if (closed || peer == rank || peer < 0 || peer >= arrivedFrom.length) {
                return;
            }
            if (sentBeforeFinish == null) {
                sentBeforeFinish = new long[arrivedFrom.length];
                Arrays.fill(sentBeforeFinish, -1);
            }
            if (sentBeforeFinish[peer] >= 0) {
                return;
            }
            sentBeforeFinish[peer] = Math.max(0, sentHere);
            doomed = doomedBy(peer);
        }
        failDoomed(doomed);
    }

    /** This rank is in Mpi.finish: what it receives from now on is its own fence, which its peers' finish cannot judge. */
    public void enterFinish() {
        synchronized (lock) {
            finishing = true;
        }
    }

    /** The failure of the lowest failed member of {@code group}, or null (lock held). */
    private RuntimeException memberFailure(Group group, Object what) {
        for (int w = 0; w < failedPeers.length; w++) {
            if (failedPeers[w] != null && group.contains(w)) {
                return peerFailure(w, failedPeers[w], what);
            }
        }
        return null;
    }

    /** True if a pending operation on {@code context} over {@code group} with {@code peerWorld} needs {@code failed}. */
    private static boolean dependsOn(int peerWorld, int context, Group group, int failed) {
        return peerWorld == failed || (peerWorld == ANY || isCollectiveContext(context)) && group.contains(failed);
    }

    private RankFailedException peerFailure(int peer, Throwable cause, Object what) {
        return new RankFailedException(peer, "rank " + peer + " (world) failed"
                + (cause.getMessage() != null ? " (" + cause.getMessage() + ")" : "") + "; on rank " + rank + ": " + what,
                cause);
    }

    /**
     * {@code peer} is gone: every pending receive from it (or from ANY_SOURCE on a communicator that
     * contains it), every rendezvous with it, every collective operation on a communicator that
     * contains it, and every later operation that needs it fails.
     */
    @Override
    public void onPeerFailed(int peer, Throwable cause) {
        Throwable why = cause != null ? cause : new MpiException("connection lost");
        List<RequestImpl> victims = new ArrayList<>();
        synchronized (lock) {
            if (failedPeers[peer] != null || closed) {
                return;
            }
            failedPeers[peer] = why;
            failedCount++;
            degraded = true;
            queues.drainPosted(r -> dependsOn(r.srcWorld, r.context, r.group, peer), victims);
            awaitingCts.values().removeIf(s -> dependsOn(s.dstWorld, s.context, s.group, peer) && victims.add(s));
            awaitingData.values().removeIf(r -> dependsOn(r.matchedSrcWorld, r.context, r.group, peer)
                    && victims.add(r));
            if (eagerStreams[peer] != null) {
                victims.add(eagerStreams[peer]);
                eagerStreams[peer] = null;
            }
            lock.notifyAll();
        }
        for (RequestImpl v : victims) {
            v.fail(peerFailure(peer, why, v));
        }
    }

    /** Whether a peer has failed: the launcher said so, or its connection did. */
    public boolean anyPeerFailed() {
        synchronized (lock) {
            return failedCount > 0;
        }
    }

    /** What every operation of this rank fails with now (the job's abort, or this engine's close), or null. */
    public RuntimeException abortCause() {
        synchronized (lock) {
            return abortCause;
        }
    }

    /** Fails every pending and later operation with {@code cause} (job abort). */
    public void failAll(RuntimeException cause) {
        List<RequestImpl> victims = new ArrayList<>();
        synchronized (lock) {
            if (abortCause != null) {
                return;
            }
            abortCause = cause;
            degraded = true;
            queues.drainPosted(r -> true, victims);
            victims.addAll(awaitingCts.values());
            awaitingCts.clear();
            victims.addAll(awaitingData.values());
            awaitingData.clear();
            for (int p = 0; p < eagerStreams.length; p++) {
                if (eagerStreams[p] != null) {
                    victims.add(eagerStreams[p]);
                    eagerStreams[p] = null;
                }
            }
            lock.notifyAll();
        }
        for (RequestImpl v : victims) {
            v.fail(cause);
        }
    }

    /**
     * Per destination, the collective messages this rank has sent: what a job's finish fence sums
     * ({@link io.mpirunj.runtime.JobControl#finishFence}).
     */
    public long[] collectiveSentTo() {
        long[] out = new long[arrivedFrom.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = sent.get(2 * i + 1);
        }
        return out;
    }

    /** Per destination, the messages (point-to-point and collective) this rank has sent. */
    public long[] sentTo() {
        long[] out = new long[arrivedFrom.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = sent.get(2 * i) + sent.get(2 * i + 1);
        }
        return out;
    }

    /** A message header of {@code frame} from {@code src} arrived here (lock held). */
    private void countArrival(int src, Frame frame) {
        if (frame.tag() == FINISH_FENCE_TAG) {
            return; // sent after the counts were given, and past anything an emulated fabric still holds
        }
        arrivedFrom[src]++;
        if (isCollectiveContext(frame.context())) {
            collectiveArrived++;
            if (probers > 0) {
                lock.notifyAll();
            }
        }
    }

    /**
     * Waits until {@code expected} collective messages have arrived here in all, at most {@code timeoutNanos}, while
     * someone else drives the I/O; false if they have not (the time passed, a failure, the engine closed).
     */
    public boolean awaitCollectiveArrivals(long expected, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        synchronized (lock) {
            probers++;
            try {
                while (collectiveArrived < expected && !degraded) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TransportProgress io = waiting.io();
                    if (io != null) {
                        io.beginPassiveWait();
                    }
                    try {
                        lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    } finally {
                        if (io != null) {
                            io.endPassiveWait();
                        }
                    }
                }
                return collectiveArrived >= expected;
            } finally {
                probers--;
            }
        }
    }

    /** A message that arrived from {@code sourceWorld} and that no receive has taken (yet). */
    public record Unreceived(int sourceWorld, int context, int tag, int bytes) {
    }

    /**
     * The collective messages ({@link #isCollectiveContext}) that arrived here and that no receive has taken. Once
     * every rank's collectives have ended, each one is a message a collective call sent and none received: the ranks'
     * collective calls did not match.
     */
    public List<Unreceived> unreceivedCollectiveMessages() {
        List<Incoming> found;
        synchronized (lock) {
            found = queues.unexpectedOn(P2pEngine::isCollectiveContext);
        }
        List<Unreceived> out = new ArrayList<>(found.size());
        for (Incoming in : found) {
            out.add(new Unreceived(in.src(), in.context(), in.tag(), in.length()));
        }
        return out;
    }

    /** Drops queued messages and fails anything still pending; later operations fail. */
    public void close() {
        List<Incoming> dropped;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            degraded = true;
            dropped = new ArrayList<>();
            queues.drainUnexpected(dropped);
            unexpectedEagerBytes = 0;
        }
        for (Incoming in : dropped) {
            release(in.payload());
        }
        failAll(new MpiException("rank " + rank + " has finished"));
    }

    private static void release(ByteBuf b) {
        if (b != null) {
            b.release();
        }
    }
}
