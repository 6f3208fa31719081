package io.mpirunj.collectives.mesh;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Mesh;

/**
 * U-mesh multicast (McKinley, Xu, Esfahanian, Ni, "Unicast-based multicast communication in
 * wormhole-routed networks", IEEE TPDS 5(12), 1994): recursive halving of the
 * dimension-ordered chain — a binomial tree laid onto the mesh without channel contention.
 *
 * <p><b>Contract.</b> Any group of ranks >= 1 on distinct nodes of a {@link Mesh}, any root;
 * ignores the cost model.
 *
 * <p><b>Algorithm.</b> Sort the group into the dimension-ordered chain. The holder of [l, r]
 * (index s) takes center = floor((l + r) / 2): if s &lt;= center it sends to x_{center+1},
 * which takes the upper half [center+1, r], and keeps [l, center]; otherwise it sends to
 * x_center, which takes [l, center], and keeps [center+1, r]. Receivers repeat on their half.
 * (The receiver is the half's endpoint next to the holder, as in paper 000's Algorithm 2; any
 * node of the other half keeps the tree contention-free and the step count.)
 *
 * <p><b>Cost.</b> ceil(log2 k) rounds: ceil(log2 k) · t_end in the round model.
 *
 * <p><b>Example</b> (the paper's 6x6 example, 8 nodes, source (3,2) at chain index 2):
 * (3,2)->(4,3) with the upper half, (3,2)->(2,1) with {(1,5),(2,1)}, (3,2)->(3,4); ...
 * 3 rounds x 55 = 165.
 */
public final class UMeshMulticast {

    public static final String NAME = "u-mesh";

    private UMeshMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model, Mesh mesh, int[] nodeOf) {
        MeshMulticasts.check(ranks, root, messageBytes, nodeOf);
        return tree(mesh, nodeOf, root).toSchedule(NAME, messageBytes, "");
    }

    static ChainTree tree(Mesh mesh, int[] nodeOf, int root) {
        return ChainTree.split(ChainTree.chain(mesh, nodeOf), root, UMeshMulticast::receiver);
    }

    static int receiver(int l, int r, int s) {
        int center = (l + r) >>> 1;
        return s <= center ? center + 1 : center;
    }
}
