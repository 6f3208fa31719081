package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * ECEF, earliest completing edge first (Bhat, Raghavendra, Prasanna 1999; paper 003's baseline): a
 * tree for a heterogeneous network, grown by adding the edge (y, z), y informed and z not, that
 * completes first: {@code ready(y) + cost(y, z)}; y then sends to its children in the order they
 * were added.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root. The model is a per-pair model over exactly
 * {@code ranks} nodes ({@code cost = latency + m / bandwidth}); with a uniform model (or none) the
 * tree is built on the unit matrix and comes out binomial. Ties: {@link PairTrees}.
 *
 * <p><b>Cost.</b> O(n²) to build in the usual case. On the matrix it was built on, the simulated
 * completion equals the largest ready time of the construction.
 *
 * <p><b>Example</b> (3 nodes, cost 0→1 = 1, 0→2 = 5, 1→2 = 2): 0→1 completes at 1; then 1→2 at 3
 * beats 0→2 at 6: the chain 0→1→2, completion 3.
 */
public final class EcefMulticast {

    public static final String NAME = "ecef";

    private EcefMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        return PairTrees.greedyMulticast(PairTrees.Rule.ECEF, NAME, ranks, root, messageBytes, model);
    }
}
