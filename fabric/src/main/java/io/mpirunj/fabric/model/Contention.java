package io.mpirunj.fabric.model;

/**
 * One contention event reported by a topology-aware network: message {@code message} needed
 * channel {@code channel} at {@code from} while message {@code blocker} held it, and got it at
 * {@code until}. In a flit-level run that is a real wait (its header stood still); in a
 * cost-model run with a fabric it is a detected overlap of occupancy intervals that did not
 * change the timing. Message ids are the simulation's (the order sends started).
 */
public record Contention(int message, int blocker, int channelId, String channel, double from, double until) {

    /** How long the message waited (or overlapped). */
    public double duration() {
        return until - from;
    }
}
