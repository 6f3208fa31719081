package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * FEF, fastest edge first (Bhat, Raghavendra, Prasanna 1999): a tree for a heterogeneous network,
 * grown by adding the cheapest edge (y, z), y informed and z not, whatever y's load; y sends to its
 * children in the order they were added.
 *
 * <p><b>Contract.</b> As {@link EcefMulticast}: a per-pair model over exactly {@code ranks} nodes, or
 * the unit matrix for a uniform model (on which FEF gives a chain: ties go to the latest-informed
 * sender).
 *
 * <p><b>Example</b> (3 nodes, cost 0→1 = 1, 0→2 = 3, 1→2 = 4): 0→1 (1), then 0→2 (3) is cheaper than
 * 1→2 (4): 0 sends to 1 then 2, completion 1 + 3 = 4; ECEF would also take 0→2 (completes at 4, 1→2 at 5).
 */
public final class FefMulticast {

    public static final String NAME = "fef";

    private FefMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        return PairTrees.greedyMulticast(PairTrees.Rule.FEF, NAME, ranks, root, messageBytes, model);
    }
}
