package io.mpirunj.collectives.multicast;

import io.mpirunj.fabric.model.CostModel;

/**
 * Picks how many segments a pipelined multicast cuts its buffer into.
 *
 * <p>With a uniform model, every count from 1 to {@link #MAX_SEGMENTS} (and at most one per
 * byte) is tried against the algorithm's closed-form estimate T(s) of t_hold and t_end at the
 * segment size ceil(m / s), and the fastest wins (ties: fewer segments). When the ranks share the
 * model's CPUs ({@link CostModel#cpus()} &gt; 0: more ranks than cores), T(s) is at least the work of the
 * {@code ranks - 1} messages each segment makes, a t_hold for its sender and one for its receiver on one
 * of the shared CPUs (as the simulator charges it): pipelining overlaps transfers only as far as there are
 * CPUs to run them, so on 8 ranks sharing 2 cores it does not pay, and it measured 1.4-2x slower than the
 * unsegmented chain at 64 KiB-1 MiB there. Without a usable model the buffer is cut into
 * {@link #DEFAULT_SEGMENT_BYTES}-byte segments.
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

    /** The segment count for {@code ranks} participants (the root included), as the class comment says. */
    static int choose(long messageBytes, int ranks, CostModel model, Estimate estimate) {
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
            double hold = model.tHold(segmentBytes);
            double time = estimate.time(s, hold, model.tEnd(segmentBytes));
            if (model.cpus() > 0) {
                time = Math.max(time, 2.0 * (ranks - 1) * s * hold / model.cpus());
            }
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
