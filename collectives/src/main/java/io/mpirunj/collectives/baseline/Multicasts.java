package io.mpirunj.collectives.baseline;

import java.util.Arrays;

/**
 * The participant list shared by the multicast algorithms, the baselines and the schedule-based
 * ones ({@link io.mpirunj.collectives.ScheduleCollectives}) alike.
 */
public final class Multicasts {
    private Multicasts() {
    }

    /**
     * The root followed by the group's ranks in their given order, without the root and without
     * repeats. Every participant computes the same list from the same arguments.
     *
     * @param commSize the communicator's size; {@code root} and every group rank are below it
     */
    public static int[] participants(int root, int[] group, int commSize) {
        boolean[] seen = new boolean[commSize];
        int[] out = new int[group.length + 1];
        int n = 0;
        out[n++] = root;
        seen[root] = true;
        for (int g : group) {
            if (!seen[g]) {
                seen[g] = true;
                out[n++] = g;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Index of {@code rank} in {@code ranks}, or -1. */
    public static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }
}
