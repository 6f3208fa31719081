package io.mpirunj.runtime.fabric;

import io.mpirunj.runtime.transport.Transport;

/**
 * One job's emulated fabric in this JVM: the arbiter and the ranks' emulating transports (ranks as
 * threads share one). Made by {@link FabricEmulation#install}; the arbiter stops when every transport
 * has closed.
 */
final class EmulatedFabric {
    private final MessageArbiter arbiter;
    private final EmulatedTransport[] transports;
    private int attached;
    /** Stand-in RTS ids (negative) of lost eager messages -> why they were lost. */
    private final java.util.Map<Long, LinkFailedException> lost = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong nextLost = new java.util.concurrent.atomic.AtomicLong();

    EmulatedFabric(MessageArbiter arbiter, int size) {
        this.arbiter = arbiter;
        this.transports = new EmulatedTransport[size];
    }

    MessageArbiter arbiter() {
        return arbiter;
    }

    Transport wrap(Transport inner) {
        return new EmulatedTransport(inner, this);
    }

    synchronized void attach(EmulatedTransport t) {
        if (t.rank() >= transports.length || transports[t.rank()] != null) {
            throw new IllegalStateException("rank " + t.rank() + " attached twice to one emulated fabric "
                    + "(a RuntimeConfig with --fabric-params serves one job)");
        }
        transports[t.rank()] = t;
        attached++;
    }

    synchronized void detach(EmulatedTransport t) {
        if (transports[t.rank()] == t) {
            attached--;
            if (attached == 0) {
                arbiter.close();
            }
        }
    }

    /** A (negative) stand-in sendId for a lost eager message: -1 - its arbiter id when known. */
    long registerLost(LinkFailedException cause) {
        long id = cause.messageId() >= 0 ? -1 - cause.messageId() : Long.MIN_VALUE + nextLost.getAndIncrement();
        lost.put(id, cause);
        return id;
    }

    /** A receiving process learns from the arbiter service why a message to it was lost. */
    void lostTo(LinkFailedException cause, boolean data, int src, int dst) {
        if (cause.messageId() >= 0) {
            lost.put(-1 - cause.messageId(), cause);
        }
        if (data) {
            linkFailed(src, dst, cause);
        }
    }

    /** Why the message of stand-in {@code id} was lost. */
    LinkFailedException takeLost(long id) {
        LinkFailedException cause = lost.remove(id);
        return cause != null ? cause : new LinkFailedException("(unknown)", Double.NaN, -1, -1);
    }

    /** The link between {@code src} and {@code dst} is down: both ends see each other as failed. */
    void linkFailed(int src, int dst, LinkFailedException cause) {
        EmulatedTransport s;
        EmulatedTransport d;
        synchronized (this) {
            s = transports[src];
            d = transports[dst];
        }
        if (d != null) {
            d.peerLost(src, cause);
        }
        if (s != null) {
            s.peerLost(dst, cause);
        }
    }
}
