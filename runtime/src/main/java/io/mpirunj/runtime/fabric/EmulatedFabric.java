package io.mpirunj.runtime.fabric;

import io.mpirunj.runtime.NanoClock;
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

    private final ModelOrigin origin;
    private final NanoClock wall;
    private final double nanosPerUnit;

    /**
     * @param origin       model time 0 of the arbiter and of the ranks' clocks
     * @param wall         the host clock {@code origin} counts from
     * @param microsPerUnit the time scale
     */
    EmulatedFabric(MessageArbiter arbiter, int size, ModelOrigin origin, NanoClock wall, double microsPerUnit) {
        this.arbiter = arbiter;
        this.transports = new EmulatedTransport[size];
        this.origin = origin;
        this.wall = wall;
        this.nanosPerUnit = microsPerUnit * 1000;
        this.clock = origin.modelClock(wall);
    }

    private final NanoClock clock;

    /** The ranks' clock (one for the job in this JVM): model time x the scale, in ns. */
    NanoClock clock() {
        return clock;
    }

    /**
     * The arbiter delivered a message from {@code src} to {@code dst} at model time {@code at}: tells
     * {@code dst}'s transport, if it is in this JVM, to expect it (see {@link EmulatedTransport#expect}).
     */
    void delivering(int src, int dst, double at) {
        EmulatedTransport d;
        synchronized (this) {
            d = transports[dst];
            if (d == null) {
                // a rank process hears of a message to it before its transport is made: keep the word
                early.computeIfAbsent(dst, r -> new java.util.ArrayList<>()).add(new double[] {src, at});
                return;
            }
        }
        d.expect(src, at);
    }

    /** Deliveries announced to a rank before its transport attached: rank -> (src, at) in order. */
    private final java.util.Map<Integer, java.util.List<double[]>> early = new java.util.HashMap<>();

    /**
     * A message the model delivered at {@code at} has just reached its receiver: if that is later (the
     * host's hops and wake-ups), model time pauses so it reads {@code at} now. The lag is the host's,
     * not the model's; without this it would be charged to every message (t_end measured too long).
     */
    void arrived(double at) {
        origin.forgive(wall.nanoTime(), (long) (at * nanosPerUnit));
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
        java.util.List<double[]> told = early.remove(t.rank());
        if (told != null) {
            for (double[] d : told) {
                t.expect((int) d[0], d[1]);
            }
        }
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

    /** Why the message of stand-in {@code id}, from {@code src} to {@code dst}, was lost. */
    LinkFailedException takeLost(long id, int src, int dst) {
        LinkFailedException cause = lost.remove(id);
        return cause != null ? cause : LinkFailedException.onAnUnknownLink(src, dst);
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
