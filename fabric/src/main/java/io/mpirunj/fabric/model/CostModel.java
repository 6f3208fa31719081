package io.mpirunj.fabric.model;

/**
 * Point-to-point cost of one message, in model time units.
 *
 * <ul>
 *   <li>{@code tHold} — the minimum interval between two consecutive sends (or two consecutive
 *       receives) of one process (paper 000: t_hold; LogP: g).</li>
 *   <li>{@code tEnd} — from the start of a send to the end of its receive, i.e. when the receiver
 *       holds the data and may forward it (paper 000: t_end; LogP: L + 2o).</li>
 * </ul>
 *
 * A <em>uniform</em> model has the same cost between every pair of nodes and answers the
 * size-only methods; a per-pair model ({@link PairCostModel}) answers only the pair methods.
 * Implementations are immutable; {@link #toString()} gives the canonical spec where one exists
 * (see {@link ModelSpec}).
 */
public interface CostModel {

    /** Minimum interval between consecutive sends (or receives) of an {@code bytes}-byte message. */
    double tHold(long bytes);

    /** Time from the start of a send of an {@code bytes}-byte message to the end of its receive. */
    double tEnd(long bytes);

    /** t_hold of a message from node {@code src} to node {@code dst}; uniform models ignore the pair. */
    default double tHold(int src, int dst, long bytes) {
        return tHold(bytes);
    }

    /** t_end of a message from node {@code src} to node {@code dst}; uniform models ignore the pair. */
    default double tEnd(int src, int dst, long bytes) {
        return tEnd(bytes);
    }

    /** True when the cost does not depend on the pair, so the size-only methods are defined. */
    default boolean uniform() {
        return true;
    }

    /**
     * How long a receiver takes to choose between two copies of one message arriving at once (paper
     * 003's α, for a RECV_FIRST_OF whose other copy started before the first completed); 0 by default.
     */
    default double firstOfDecision() {
        return 0;
    }

    /** Number of sends (and receives) a node may have in flight at once; 1 is the one-port model. */
    default int ports() {
        return 1;
    }

    /**
     * How many CPUs all nodes share, or 0 when each node has its own (the papers' assumption). With
     * ranks outnumbering cores (np 8 processes on 2 cores), every send and every receive also needs one
     * of these CPUs for its t_hold, so the total work of an algorithm counts, not only its depth.
     */
    default int cpus() {
        return 0;
    }

    /**
     * With {@link #cpus()} shared: how long after an {@code bytes}-byte message arrives its receiver, which
     * waited for it off the CPUs, holds the data — the latency of being scheduled onto a shared core, paid
     * on every hop of a tree but not occupying a CPU, unlike t_hold. A rank with a core of its own pays it
     * inside t_end. 0 by default.
     */
    default double tWake(long bytes) {
        return 0;
    }

    /**
     * Messages above this many bytes go by rendezvous: the sender announces the message (RTS) and moves the
     * data only once the receiver has answered (CTS), so the data leaves no earlier than the round trip
     * {@code t_end(src,dst,0) + t_end(dst,src,0)} after the send is posted, plus, with {@link #cpus()} shared,
     * the receiver's {@link #tWake} to be scheduled to answer. {@link Long#MAX_VALUE} (the default): every
     * message is eager, as in the papers.
     */
    default long rendezvousAbove() {
        return Long.MAX_VALUE;
    }
}
