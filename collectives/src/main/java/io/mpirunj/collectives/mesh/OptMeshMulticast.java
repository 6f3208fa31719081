package io.mpirunj.collectives.mesh;

import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.multicast.OptTreeTable;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Mesh;

/**
 * OPT-mesh multicast (J.-Y. Lee, paper 000, Algorithm 2): the OPT-tree's shape, laid onto the
 * mesh so that, with dimension-ordered routing, no two concurrent unicasts share a channel.
 *
 * <p><b>Contract.</b> Any group of ranks >= 1 placed on distinct nodes of a {@link Mesh}
 * ({@code nodeOf[rank]}), any root; needs a uniform cost model (its t_hold and t_end at the
 * message size choose the splits, exactly as for OPT-tree). On a torus the schedule is built
 * the same way, but the wrap links void the contention-freedom argument.
 *
 * <p><b>Algorithm.</b> Sort the group into the dimension-ordered chain x_0 &lt;_d ... &lt;_d x_r
 * (node address compared highest dimension first). The holder of the interval [l, r] (at
 * index s) splits it with j = j_size from the OPT-tree table (size = r - l + 1):
 * <ul>
 *   <li>s &lt; l + j (holder in the lower j nodes): send to x_{l+j}, which takes [l+j, r]; r = l+j-1;</li>
 *   <li>s &gt; r - j (holder in the upper j nodes): send to x_{r-j}, which takes [l, r-j]; l = r-j+1;</li>
 *   <li>neither (possible only when 2j &lt; size, i.e. t_hold &gt; t_end): the holder keeps the
 *       shorter of [l, s] and [s, r] and sends the rest as above — a departure from the paper,
 *       whose Algorithm 2 assumes 2·j_i &gt;= i;</li>
 * </ul>
 * until l = r; receivers do the same on their interval. The tree has the OPT-tree's shape, so
 * its model time is t[k] of the table; with routing the paper's theorem 3.2 says it is
 * contention-free (consecutive sends of a node are t_hold apart, concurrent senders work in
 * disjoint chain intervals whose routes are arc-disjoint).
 *
 * <p><b>Example</b> (mesh:6x6, t_hold = 20, t_end = 55, the paper's figure 7; chain
 * (1,5),(2,1),(3,2)*,(3,4),(4,3),(4,4),(5,1),(5,4); start / end):
 * <pre>
 *   (3,2)->(4,4)   0 / 55   carries {(4,4),(5,1),(5,4)}    (j_8 = 5)
 *   (3,2)->(3,4)  20 / 75   carries {(3,4),(4,3)}          (j_5 = 3)
 *   (3,2)->(1,5)  40 / 95       (3,2)->(2,1)  60 / 115
 *   (4,4)->(5,4)  55 / 110      (4,4)->(5,1)  75 / 130     (3,4)->(4,3)  75 / 130
 *   completion 130 = t[8]
 * </pre>
 */
public final class OptMeshMulticast {

    public static final String NAME = "opt-mesh";

    private OptMeshMulticast() {
    }

    /**
     * @param ranks  group size k
     * @param root   the root's index in the group
     * @param model  uniform cost model; its t_hold/t_end at {@code messageBytes} choose the splits
     * @param mesh   the mesh the group lives on
     * @param nodeOf nodeOf[rank]: the node of each group member, distinct
     */
    public static Schedule build(int ranks, int root, long messageBytes, CostModel model, Mesh mesh, int[] nodeOf) {
        MeshMulticasts.check(ranks, root, messageBytes, nodeOf);
        OptTreeTable table = OptTreeMulticast.table(ranks, messageBytes, model);
        return tree(mesh, nodeOf, root, table).toSchedule(NAME, messageBytes, "");
    }

    static ChainTree tree(Mesh mesh, int[] nodeOf, int root, OptTreeTable table) {
        int[] chain = ChainTree.chain(mesh, nodeOf);
        return ChainTree.split(chain, root, (l, r, s) -> receiver(l, r, s, table.split(r - l + 1)));
    }

    /** The index the holder s of [l, r] sends to when it keeps j nodes (Algorithm 2). */
    static int receiver(int l, int r, int s, int j) {
        if (s < l + j) {
            return l + j;
        }
        if (s > r - j) {
            return r - j;
        }
        // 2j < size and s in the middle: keep the shorter side containing s.
        return s - l <= r - s ? s + 1 : s - 1;
    }
}
