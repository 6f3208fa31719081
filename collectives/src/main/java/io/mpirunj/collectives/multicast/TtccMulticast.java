package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * TTCC, two-tree collective communication (Cha, Lee, Han, Yu 2004, paper 003): a broadcast that
 * survives a wrong network prediction.
 *
 * <ol>
 *   <li>T0 is {@link EcefMulticast ECEF}'s tree on the predicted matrix.</li>
 *   <li>T1 is ECEF again from the root, on the edges T0 does not use (in either direction), with
 *       fresh ready times. It reaches every node it can; a node whose links all belong to T0 (the
 *       centre of a star-shaped T0, or the middle of a 3-node chain) is not in T1.</li>
 *   <li>Each node in both trees receives with RECV_FIRST_OF from its T0 and T1 parents: the first
 *       complete copy is kept, the other dropped (the simulator charges α, the model's
 *       {@code firstOfDecision}, when both copies were on their way); a node only in T0 receives
 *       from its T0 parent.</li>
 *   <li>Having the data, a node sends to its T0 children first, then its T1 children, each in the
 *       order its tree added them.</li>
 * </ol>
 *
 * <p><b>Contract.</b> As {@link EcefMulticast}. At 1–2 ranks T1 is empty and TTCC is ECEF. With a
 * uniform model (or none) both trees are built on the unit matrix: T0 is binomial and T1 exists from
 * 3 ranks up, so both trees really send (3 ranks, root 0: T0 = 0→1→2, T1 = 0→2).
 *
 * <p><b>Cost.</b> Two ECEF trees, O(n²) each in the usual case; at most 2(n - 1) messages, of which
 * the |T1| copies that lose are dropped.
 */
public final class TtccMulticast {

    public static final String NAME = "ttcc";

    private TtccMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        double[][] cost = PairTrees.plan(ranks, messageBytes, model, NAME);
        PairTrees.Tree t0 = PairTrees.grow(ranks, cost, root, null, PairTrees.Rule.ECEF);
        PairTrees.Tree t1 = PairTrees.grow(ranks, cost, root, t0, PairTrees.Rule.ECEF);
        return schedule(t0, t1, messageBytes);
    }

    /** The two trees as one schedule (see the class comment). Steps are T0's rounds, T1 sends after a node's T0 sends. */
    static Schedule schedule(PairTrees.Tree t0, PairTrees.Tree t1, long messageBytes) {
        int n = t0.parent.length;
        if (t0.size() != n) {
            throw new IllegalStateException("T0 reaches " + t0.size() + " of " + n + " ranks (builder bug)");
        }
        Schedule.Builder b = Schedule.builder(Collective.MULTICAST, NAME, n, t0.root, messageBytes)
                .note("T0 " + (n - 1) + " edges, T1 " + (t1.size() - 1) + " edges");
        int[] step = new int[n]; // the round in which a node receives over T0
        for (int i = 1; i < n; i++) {
            int v = t0.order[i];
            int p = t0.parent[v];
            int index = 0;
            while (t0.children[p][index] != v) {
                index++;
            }
            step[v] = step[p] + index + 1;
        }
        for (int i = 0; i < n; i++) {
            int v = t0.order[i];
            if (v != t0.root) {
                int p1 = t1.parent[v];
                if (p1 >= 0) {
                    b.recvFirstOf(v, new int[] {t0.parent[v], p1}, step[v], Block.WHOLE_ONLY);
                } else {
                    b.recv(v, t0.parent[v], step[v]);
                }
            }
            int sent = 0;
            for (int c : t0.children[v]) {
                b.send(v, c, step[v] + ++sent);
            }
            for (int c : t1.children[v]) {
                b.send(v, c, step[v] + ++sent);
            }
        }
        return b.build();
    }
}
