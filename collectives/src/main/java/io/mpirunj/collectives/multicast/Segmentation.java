package io.mpirunj.collectives.multicast;

import io.mpirunj.fabric.model.CostModel;

/**
 * Picks how many segments a pipelined multicast cuts its buffer into.
 *
 * <p>With a uniform model, every count from 1 to {@link #MAX_SEGMENTS} (and at most one per
 * byte) is tried against the algorithm's closed-form estimate T(s) of t_hold and t_end at the
 * segment size ceil(m / s), and the fastest wins (ties: fewer segments). Without a usable model
 * the buffer is cut into {@link #DEFAULT_SEGMENT_BYTES}-byte segments.
 */
final class Segmentation {

    static final int MAX_SEGMENTS = 1024;
    static final long DEFAULT_SEGMENT_BYTES = 64 * 1024;

    /** An algorithm's estimated completion with {@code segments} segments of the given per-segment costs. */
    @FunctionalInterface
    interface Estimate {
        double time(int segments, double segmentHold, double segmentEnd);
    }

    private Segmentation() {
    }

    static int choose(long messageBytes, CostModel model, Estimate estimate) {
        if (messageBytes <= 1) {
            return 1;
        }
        int limit = (int) Math.min(MAX_SEGMENTS, messageBytes);
        if (model == null || !model.uniform()) {
            return (int) Math.min(limit, (messageBytes + DEFAULT_SEGMENT_BYTES - 1) / DEFAULT_SEGMENT_BYTES);
        }
        int best = 1;
        double bestTime = Double.POSITIVE_INFINITY;
        for (int s = 1; s <= limit; s++) {
            long segmentBytes = (messageBytes + s - 1) / s;
            double time = estimate.time(s, model.tHold(segmentBytes), model.tEnd(segmentBytes));
            if (time < bestTime) {
                bestTime = time;
                best = s;
            }
        }
        return best;
    }

    /** A note for the schedule: how the buffer was cut. */
    static String describe(int segments, long messageBytes) {
        return segments == 1 ? "1 segment (no pipelining pays off)"
                : segments + " segments of ~" + ((messageBytes + segments - 1) / segments) + " bytes";
    }
}
