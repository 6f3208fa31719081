package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Schedule;

/**
 * Baseline: indirect all-to-all on an N×N torus by <em>diagonal propagation</em>, a
 * reconstruction in the style of Tseng, Lin, Gupta and Panda (1997) and Suh and Yalamanchili
 * (1997), the two algorithms paper 001 compares against. It is not either published algorithm
 * step for step (their papers are not in our set); it is the same exchange SEM runs among its
 * masters ({@link TorusPhases#diagonal}) run on all N² nodes with 1-link neighbours: four diagonal
 * groups, each owning one channel direction, ring-forward blocks 4 links at a time into their
 * target's aligned 4×4 tile ((N/4 - 1) steps per dimension), then 4 halving steps inside the tile.
 * It reproduces the cost the paper tabulates for them: <b>N/2 + 2 start-ups</b> and
 * (N³ + 4N²)/4 transmitted block-units, and for the rearrangement 3N² - 4N block-units, close to
 * Suh's 3N² (the paper's [14] row).
 *
 * <p>N must give a virtual side that {@link SemAlltoall#runsNatively} accepts with cells of 1
 * (N = 2, 4 or a multiple of 4); other sizes are padded with virtual nodes as SEM's are.
 */
public final class DiagonalAlltoall {

    /** Registry name. */
    public static final String NAME = "diagonal";

    private DiagonalAlltoall() {
    }

    public static Schedule build(int n, long blockBytes) {
        TorusAlltoalls.requireSide(n, 2);
        int side = SemAlltoall.nativeSide(n, 1);
        CombiningExchange ex = new CombiningExchange(side, n);
        TorusPhases.diagonal(ex, 1);
        if (!ex.everythingDelivered()) {
            throw new IllegalStateException("diagonal construction left blocks undelivered on " + n + "x" + n);
        }
        return ex.schedule(NAME, blockBytes, side == n ? "" : "padded with virtual nodes to " + side + "x" + side);
    }

    /** The start-up count the paper gives for Tseng et al. and Suh-Yalamanchili: N/2 + 2. */
    public static int paperStartUps(int n) {
        return n / 2 + 2;
    }
}
