package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Schedule;

/**
 * SEM (split, exchange, merge): all-to-all personalized exchange on an N×N wormhole torus,
 * after Kim, Maeng and Cho (paper 001), as a schedule of combined messages. Rank = node id =
 * row·N + column.
 *
 * <ol>
 *   <li><b>Split</b>, 2 steps: in every 2×2 basic cell the two masters P_{2p,2q}, P_{2p+1,2q+1}
 *       collect the cell's blocks for the even rows (NG_0), respectively the odd rows (NG_1):
 *       first along the row, then along the column (1 link each).</li>
 *   <li><b>Exchange</b>, N/4 + 2 steps for N ≥ 16: each master subnetwork, a virtual N/2 × N/2
 *       torus with 2-link neighbours, runs a complete exchange in four phases: (N/8 - 1) + (N/8 - 1)
 *       steps of 8 links, 2 steps of 4 links, 2 steps of 2 links. See
 *       {@link TorusPhases#diagonal} for the derivation and where it departs from the paper.</li>
 *   <li><b>Merge</b>, 1 step: each master hands its slave (the other node of its row in the cell)
 *       the slave's blocks.</li>
 * </ol>
 * Start-ups: N/4 + 5 for N ≥ 16; 7 for N = 8 (phases 1 and 2 are empty, N/8 - 1 = 0, so the
 * formula holds too); 5 for N = 4 (the virtual torus is 2×2: phase 4 only). All paths are
 * straight along a row or column in the direction the phase prescribes (explicit: on a 16-torus
 * 8 links is half way round, and the default routing would send everything the + way).
 *
 * <h2>Extensions (paper 001 §4)</h2>
 * <ul>
 *   <li><b>4×4 basic cells</b> ({@code cellSide = 4}): the split is applied twice (2 + 2 steps,
 *       links 1 then 2 long), the exchange runs on four N/4 × N/4 subnetworks with 4-link
 *       neighbours, and the merge twice: N/8 + 8 start-ups for N ≥ 32, fewer than N/4 + 5 from
 *       N = 32 on (twice the masters' buffer memory again).</li>
 *   <li><b>Other sizes</b>: the construction needs the virtual side M = N / cellSide to be 2, 4 or
 *       a multiple of 4 (so N = 24 or 40 run natively). Otherwise the torus is padded with virtual
 *       nodes to the next size that works; a virtual node is emulated by real node (row mod N,
 *       column mod N), which pays extra start-ups when it has several sends in a step (see
 *       {@link CombiningExchange}); paths are then left to the fabric's routing.</li>
 *   <li>3D tori: not built. The exchange's contention-freedom rests on four diagonal groups
 *       owning the four 2D channel directions; a 3D version needs six groups and a new proof.</li>
 * </ul>
 */
public final class SemAlltoall {

    /** Registry name of the 2×2-cell algorithm. */
    public static final String NAME = "sem";
    /** Registry name of the 4×4-cell variant. */
    public static final String NAME_CELL4 = "sem-cell4";

    private SemAlltoall() {
    }

    /** SEM with 2×2 basic cells on an n×n torus (n ≥ 2); {@code blockBytes} per (origin, destination) block. */
    public static Schedule build(int n, long blockBytes) {
        return build(n, blockBytes, 2);
    }

    /** SEM with {@code cellSide}×{@code cellSide} basic cells (2 or 4). */
    public static Schedule build(int n, long blockBytes, int cellSide) {
        if (cellSide != 2 && cellSide != 4) {
            throw new IllegalArgumentException("cell side " + cellSide + " (expected: 2 or 4)");
        }
        if (n < cellSide) {
            throw new IllegalArgumentException("torus side " + n + " (expected: >= " + cellSide
                    + " for " + cellSide + "x" + cellSide + " basic cells)");
        }
        int levels = cellSide == 2 ? 1 : 2;
        int side = nativeSide(n, cellSide);
        CombiningExchange ex = new CombiningExchange(side, n);
        for (int level = 1; level <= levels; level++) {
            TorusPhases.split(ex, level);
        }
        TorusPhases.diagonal(ex, cellSide);
        for (int level = levels; level >= 1; level--) {
            TorusPhases.merge(ex, level);
        }
        if (!ex.everythingDelivered()) {
            throw new IllegalStateException("SEM construction left blocks undelivered on " + n + "x" + n);
        }
        String name = cellSide == 2 ? NAME : NAME_CELL4;
        String note = side == n ? "" : "padded with virtual nodes to " + side + "x" + side;
        return ex.schedule(name, blockBytes, note);
    }

    /** The smallest side >= n on which SEM with these cells runs without virtual nodes. */
    static int nativeSide(int n, int cellSide) {
        int side = n;
        while (!runsNatively(side, cellSide)) {
            side++;
        }
        return side;
    }

    static boolean runsNatively(int side, int cellSide) {
        if (side % cellSide != 0) {
            return false;
        }
        int m = side / cellSide;
        return m == 1 || m == 2 || m == 4 || (m % 4 == 0 && m >= 8);
    }

    /** The paper's start-up count for N ≥ 16 (2×2 cells): N/4 + 5. */
    public static int paperStartUps(int n) {
        return n / 4 + 5;
    }
}
