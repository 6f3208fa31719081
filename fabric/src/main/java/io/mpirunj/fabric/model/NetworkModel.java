package io.mpirunj.fabric.model;

import java.util.List;

/**
 * The seam between a schedule simulator and whatever decides when messages arrive.
 *
 * <p>The simulator owns the processes (what is sent when, data dependencies, the one-port
 * spacing given by {@link #sendGap} and {@link #receiveGap}); the network owns the wire. A
 * closed-form cost model is one implementation ({@link CostModelNetwork}); a flit-level wormhole
 * engine with channel contention is another: it only needs, per message, the send start time,
 * the sender and receiver node and the size, and reports when the receiver holds the message.
 *
 * <p>Node numbers are the network's (the simulator maps schedule ranks onto nodes). A model is
 * immutable; each simulation opens its own {@link Run} for the in-flight state.
 */
public interface NetworkModel {

    /** Minimum interval after a send from {@code src} starts before that port may start another. */
    double sendGap(int src, int dst, long bytes);

    /** Minimum interval between two consecutive receive completions on one port of {@code dst}. */
    double receiveGap(int src, int dst, long bytes);

    /** Sends (and receives) a node may have in flight at once; 1 is one-port. */
    int ports();

    /** CPUs all nodes share, each send and receive holding one for its gap; 0 (the default): one per node. */
    default int cpus() {
        return 0;
    }

    /** See {@link CostModel#tWake}: a receiver's latency to be scheduled onto a shared CPU; 0 by default. */
    default double wake(int src, int dst, long bytes) {
        return 0;
    }

    /** See {@link CostModel#rendezvousAbove()}: sizes above it wait a round trip before the data leaves; none by default. */
    default long rendezvousAbove() {
        return Long.MAX_VALUE;
    }

    /**
     * The rendezvous handshake of a message from {@code src} to {@code dst} (RTS there, CTS back, the receiver
     * woken to answer): how long after the send is posted its data may leave. Used above {@link #rendezvousAbove()}.
     */
    default double rendezvousRoundTrip(int src, int dst) {
        return 0;
    }

    /** See {@link CostModel#firstOfDecision()}: paper 003's α; 0 by default. */
    default double firstOfDecision() {
        return 0;
    }

    /** Opens a fresh simulation run with nothing in flight. */
    Run open();

    /** Canonical description, e.g. a cost model spec; printed in reports and exports. */
    String describe();

    /**
     * The in-flight state of one simulation. Calls come in non-decreasing virtual time: every
     * {@link #inject} at time t happens before any delivery later than t is taken, so a
     * contention-aware engine can run its own events up to the next delivery.
     */
    interface Run {

        /** A message of {@code bytes} leaves {@code src} for {@code dst}, its send starting at {@code start}. */
        void inject(int message, int src, int dst, long bytes, double start);

        /**
         * {@link #inject(int, int, int, long, double)} along an explicit path of nodes (both ends
         * included). Networks without topology ignore the path.
         */
        default void inject(int message, int src, int dst, long bytes, double start, int[] path) {
            inject(message, src, dst, bytes, start);
        }

        /** Time of the earliest pending delivery, or {@code Double.POSITIVE_INFINITY} when none is in flight. */
        double nextDelivery();

        /** Removes the earliest pending delivery (ties: lowest message id) and returns its message id. */
        int takeDelivery();

        /**
         * {@link #nextDelivery()} for a caller that promises to inject nothing before
         * {@code horizon}. A contention-aware engine may then only run its own events up to the
         * horizon: the result is exact when it is below {@code horizon}, and otherwise only
         * guaranteed to be {@code >= horizon} (the caller handles its own events at the horizon
         * first and asks again). Cost-model networks ignore the horizon.
         */
        default double nextDelivery(double horizon) {
            return nextDelivery();
        }

        /** The nodes message {@code message} travels through, both ends included; empty when the network has no topology. */
        default int[] path(int message) {
            return new int[0];
        }

        /** Total time message {@code message} waited for (or, in a cost-model fabric, overlapped on) busy channels. */
        default double waited(int message) {
            return 0;
        }

        /** Every contention event so far, in the order they were resolved; empty when the network has no topology. */
        default List<Contention> contentions() {
            return List.of();
        }
    }
}
