package io.mpirunj.collectives.torus;

/**
 * The step patterns SEM and the diagonal-propagation baseline are made of, written on a
 * {@link CombiningExchange}. Coordinates are logical (row i, column j); a destination d = (i, j).
 *
 * <h2>Masters and targets</h2>
 * With basic cells of side c = 2^L, the <em>level-ℓ masters</em> (ℓ ≤ L) are the nodes with
 * {@code col ≡ row (mod 2^ℓ)}: the diagonals of the 2^ℓ × 2^ℓ cells (level 1: P_{2p,2q} and
 * P_{2p+1,2q+1}, paper 001's MN_0 and MN_1). They form 2^ℓ subnetworks (by {@code row mod 2^ℓ}),
 * each a virtual (N/2^ℓ)² torus whose neighbours are 2^ℓ links apart. The level-ℓ master that
 * collects destination (i, j) is {@code (i, 2^ℓ·⌊j/2^ℓ⌋ + i mod 2^ℓ)}: same row, in the destination's
 * cell, on the diagonal of the destination's row class. (Level 1: blocks for the even rows, NG_0,
 * gather at P_{2p,2q}, for the odd rows at P_{2p+1,2q+1}, as in the paper's definition 1.)
 */
final class TorusPhases {

    private TorusPhases() {
    }

    /**
     * Stage 1 at level ℓ ("split"), 2 steps: the level-(ℓ-1) masters of each level-ℓ cell hand
     * over, along the row (step 1) and then along the column (step 2), 2^(ℓ-1) links each, the
     * blocks whose level-ℓ collector is on the other side. Paper 001 figure 5 for ℓ = 1: in step
     * 1 P_{i,2q} and P_{i,2q+1} swap, in step 2 the slave of each column passes what it gathered to
     * the master below or above it.
     */
    static void split(CombiningExchange ex, int level) {
        int h = 1 << (level - 1);
        int side = ex.side();
        int[] keys = ex.destinationKeys((i, j) -> (i >> (level - 1)) & 1);
        for (int dim = 0; dim < 2; dim++) {
            for (int row = 0; row < side; row++) {
                for (int col = 0; col < side; col++) {
                    if (Math.floorMod(col - row, h) != 0) {
                        continue;
                    }
                    int own = ((dim == 0 ? col : row) >> (level - 1)) & 1;
                    int sign = own == 0 ? 1 : -1;
                    int to = dim == 0 ? ex.node(row, col + sign * h) : ex.node(row + sign * h, col);
                    ex.move(ex.node(row, col), to, dim, sign, h, keys, own);
                }
            }
            ex.step(); // split, along the row then the column
        }
    }

    /**
     * Stage 3 at level ℓ ("merge"), 1 step: each level-ℓ master hands the blocks of its cell
     * partner along the row (2^(ℓ-1) links) over. Paper 001 figure 10 for ℓ = 1.
     */
    static void merge(CombiningExchange ex, int level) {
        int h = 1 << (level - 1);
        int side = ex.side();
        int[] keys = ex.destinationKeys((i, j) -> (j >> (level - 1)) & 1);
        for (int row = 0; row < side; row++) {
            for (int col = 0; col < side; col++) {
                if (Math.floorMod(col - row, 2 * h) != 0) {
                    continue;
                }
                int own = (col >> (level - 1)) & 1;
                int sign = own == 0 ? 1 : -1;
                ex.move(ex.node(row, col), ex.node(row, col + sign * h), 0, sign, h, keys, own);
            }
        }
        ex.step(); // merge
    }

    /**
     * The complete exchange among the level-L masters (c = 2^L; c = 1 is every node, the
     * baseline), each subnetwork a virtual M × M torus, M = side / c, its links c hops long.
     * A destination's virtual target is (⌊i/c⌋, ⌊j/c⌋).
     *
     * <h3>Phases 1 and 2: M/4 - 1 steps each, 4 virtual hops (paper: 8 links for c = 2)</h3>
     * The masters fall into four diagonal groups g = (p + q) mod 4 (p, q the virtual row and
     * column), and group g uses one channel direction per phase: phase 1 H+, V+, H-, V- for g = 0..3,
     * phase 2 V+, H+, V-, H- (paper 001 figure 7). A node sends to the node 4 virtual hops on, which
     * is in its own group, so each group runs rings of M/4 nodes, 4 virtual hops apart: the groups
     * never share a channel direction and the ring segments of one group tile the row or column,
     * so no two messages of a step share a channel. Every step a node forwards every block whose
     * target lies in another <em>aligned 4 × 4 tile</em> of virtual columns (phase 1 for H, else
     * rows) than its own; after M/4 - 1 steps every block is in its target's tile.
     *
     * <p>Departure from the paper: its lemma 2 leaves a block within 8 links <em>ahead</em> of its
     * target in the group's direction; its phases 3 and 4 (garbled in the text) then mix blocks of
     * groups that must move in opposite directions, which a one-port node cannot do in one step.
     * Stopping in the target's aligned tile instead keeps the step counts and hop lengths and makes
     * phases 3 and 4 a recursive halving inside the tile.
     *
     * <h3>Phase 3: 2 steps, 2 virtual hops; phase 4: 2 steps, 1 virtual hop</h3>
     * Phase 3 exchanges across bit 1 of the tile coordinate: in step 1 the nodes with p + q even
     * swap along the row with the node 2 virtual columns away (q xor 2), those with p + q odd along
     * the column (p xor 2); step 2 the other way round (the paper's even/odd split of figure 8:
     * running all rows at once would put two messages on the middle link of every tile row).
     * Phase 4 exchanges across bit 0: step 1 all along the row (q xor 1), step 2 all along the
     * column. Each step moves the half of a node's blocks whose target differs in that bit.
     */
    static void diagonal(CombiningExchange ex, int c) {
        int side = ex.side();
        int m = side / c;
        if (m >= 8) {
            int[][] tileKeys = {
                ex.destinationKeys((i, j) -> j / c / 4),
                ex.destinationKeys((i, j) -> i / c / 4)};
            // direction per group g: {dim, sign} in phase 1; phase 2 swaps the dimension
            int[][] phase1 = {{0, 1}, {1, 1}, {0, -1}, {1, -1}};
            for (int phase = 1; phase <= 2; phase++) {
                for (int s = 1; s <= m / 4 - 1; s++) {
                    for (int p = 0; p < m; p++) {
                        for (int q = 0; q < m; q++) {
                            for (int sub = 0; sub < c; sub++) {
                                int g = (p + q) % 4;
                                int dim = phase == 1 ? phase1[g][0] : 1 - phase1[g][0];
                                int sign = phase1[g][1];
                                int row = p * c + sub;
                                int col = q * c + sub;
                                int to = dim == 0 ? ex.node(row, col + sign * 4 * c) : ex.node(row + sign * 4 * c, col);
                                int own = (dim == 0 ? q : p) / 4;
                                ex.move(ex.node(row, col), to, dim, sign, 4 * c, tileKeys[dim], own);
                            }
                        }
                    }
                    ex.step(); // exchange phase 1 or 2
                }
            }
        }
        if (m >= 4) {
            halve(ex, c, m, 2); // phase 3
        }
        if (m >= 2) {
            halve(ex, c, m, 1); // phase 4
        }
    }

    /** Two steps across bit {@code bit} (2: phase 3 with the even/odd split; 1: phase 4). */
    private static void halve(CombiningExchange ex, int c, int m, int bit) {
        int[][] keys = {
            ex.destinationKeys((i, j) -> (j / c) & bit),
            ex.destinationKeys((i, j) -> (i / c) & bit)};
        for (int stepOf = 0; stepOf < 2; stepOf++) {
            for (int p = 0; p < m; p++) {
                for (int q = 0; q < m; q++) {
                    for (int sub = 0; sub < c; sub++) {
                        int dim = bit == 2 ? ((p + q) % 2 + stepOf) % 2 : stepOf;
                        int own = (dim == 0 ? q : p) & bit;
                        int sign = own == 0 ? 1 : -1;
                        int row = p * c + sub;
                        int col = q * c + sub;
                        int hops = bit * c;
                        int to = dim == 0 ? ex.node(row, col + sign * hops) : ex.node(row + sign * hops, col);
                        ex.move(ex.node(row, col), to, dim, sign, hops, keys[dim], own);
                    }
                }
            }
            ex.step();
        }
    }
}
