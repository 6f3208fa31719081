package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * Baseline: direct pairwise exchange on P = N² nodes, P - 1 steps. In step s every rank r sends
 * its block for (r + s) mod P straight there and receives the block of (r - s) mod P: one message
 * out and one in per node and step, no buffering, no re-sorting.
 *
 * <p>Paths: row first, then column, <em>without the wrap-around links</em> (dimension-ordered
 * routing as on a mesh). Nothing holds a node's next send back (it carries its own data), so
 * many worms are in flight at once, and the torus's shortest-way routing, which has cyclic
 * channel dependencies and no virtual channels here, deadlocks under that load (the wormhole
 * engine finds the cycles); dimension order on the mesh is deadlock-free.
 */
public final class DirectAlltoall {

    /** Registry name. */
    public static final String NAME = "direct";

    private DirectAlltoall() {
    }

    public static Schedule build(int n, long blockBytes) {
        TorusAlltoalls.requireSide(n, 1);
        int p = n * n;
        Schedule.Builder b = Schedule.builder(Collective.ALLTOALL, NAME, p, -1, blockBytes).copyOwnPairBlocks();
        for (int s = 1; s < p; s++) {
            for (int r = 0; r < p; r++) {
                int to = (r + s) % p;
                b.send(r, to, s, List.of(new Block.Pair(r, to)), meshPath(n, r, to), Instruction.ANY_PORT);
                int from = (r - s + p) % p;
                b.recv(r, from, s, List.of(new Block.Pair(from, r)));
            }
        }
        return b.build();
    }

    /** Node ids from {@code from} to {@code to}: along the column to the target row, then along the row. */
    static int[] meshPath(int n, int from, int to) {
        int row = from / n;
        int col = from % n;
        int[] path = new int[Math.abs(to / n - row) + Math.abs(to % n - col) + 1];
        int k = 0;
        path[k++] = from;
        while (row != to / n) {
            row += Integer.signum(to / n - row);
            path[k++] = row * n + col;
        }
        while (col != to % n) {
            col += Integer.signum(to % n - col);
            path[k++] = row * n + col;
        }
        return path;
    }
}
