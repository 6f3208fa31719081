package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * Baseline: direct pairwise exchange on P = N² nodes, P - 1 steps. In step s every rank r sends
 * its block for (r + s) mod P straight there (the fabric routes it) and receives the block of
 * (r - s) mod P: one message out and one in per node and step, no buffering, no re-sorting.
 */
public final class DirectAlltoall {

    /** Registry name. */
    public static final String NAME = "direct";

    private DirectAlltoall() {
    }

    public static Schedule build(int n, long blockBytes) {
        if (n < 1) {
            throw new IllegalArgumentException("torus side " + n + " (expected: >= 1)");
        }
        int p = n * n;
        Schedule.Builder b = Schedule.builder(Collective.ALLTOALL, NAME, p, -1, blockBytes);
        for (int s = 1; s < p; s++) {
            for (int r = 0; r < p; r++) {
                int to = (r + s) % p;
                b.send(r, to, s, List.of(new Block.Pair(r, to)));
                int from = (r - s + p) % p;
                b.recv(r, from, s, List.of(new Block.Pair(from, r)));
            }
        }
        return b.build();
    }
}
