package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * OPT-tree generalised to p ports (an extension; paper 000 only cites it, ref. [7]): a node may
 * have p sends in flight, each port spacing its own sends by t_hold.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; needs a uniform cost model, p = model.ports().
 * A source holding i nodes keeps j_i and sends, all at once, to the leaders of up to p subtrees
 * that split the other i - j_i as evenly as possible (largest first), then continues t_hold later
 * with its own j_i; recursively. See {@link OptTreeTable} for the recurrence. With p = 1 this is
 * exactly {@link OptTreeMulticast}.
 *
 * <p><b>Cost.</b> {@code t[k]} of the p-port table, equal to the event-simulated completion on a
 * model with p ports (tested), and never worse than one port. It is the natural generalisation
 * of the one-port recurrence, not a proof of optimality over every p-port schedule (ref. [7] is
 * not among our papers). Building: O(k log k) + O(k).
 *
 * <p><b>Example</b> (k = 7, t_hold = 10, t_end = 40, p = 2; start / end): the root keeps
 * everything but one pair at each batch, so it serves all six itself, two at a time:
 * <pre>
 *   0 -> 5, 0 -> 6   0 / 40     0 -> 3, 0 -> 4  10 / 50     0 -> 1, 0 -> 2  20 / 60    completion 60
 * </pre>
 * (one port: 80). With t_hold = 10, t_end = 100, k = 16: one port 210, two ports 170.
 */
public final class MultiPortOptTreeMulticast {

    public static final String NAME = "opt-tree-multiport";

    private MultiPortOptTreeMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        return build(ranks, root, messageBytes, table(ranks, messageBytes, model));
    }

    /** The p-port table a build with this model uses, p = model.ports(). */
    public static OptTreeTable table(int ranks, long messageBytes, CostModel model) {
        Requests.uniform(model, NAME);
        return OptTreeTable.of(ranks, model.tHold(messageBytes), model.tEnd(messageBytes), model.ports());
    }

    static Schedule build(int ranks, int root, long messageBytes, OptTreeTable table) {
        int ports = table.ports();
        return tree(ranks, root, table, ports)
                .toSchedule(NAME, messageBytes, Block.WHOLE_ONLY, ports, ports == 1 ? "" : "ports=" + ports);
    }

    /**
     * The OPT tree {@code table} describes, with each source sending to up to {@code ports} subtree
     * leaders at once; {@code ports = 1} is the one-port tree of {@link OptTreeMulticast}.
     */
    static MulticastTree tree(int ranks, int root, OptTreeTable table, int ports) {
        MulticastTree tree = new MulticastTree(ranks, root);
        // Pending subtrees as (leader, size) pairs in virtual ranks; every node is pushed once.
        int[] leaders = new int[ranks];
        int[] sizes = new int[ranks];
        int top = 0;
        leaders[top] = 0;
        sizes[top++] = ranks;
        while (top > 0) {
            top--;
            int leader = leaders[top];
            int size = sizes[top];
            while (size > 1) {
                int keep = table.split(size);
                int given = size - keep;
                int parts = Math.min(ports, given);
                int next = leader + keep;
                for (int part = 0; part < parts; part++) {
                    int partSize = given / parts + (part < given % parts ? 1 : 0);
                    tree.addChild(Requests.rotate(leader, root, ranks), Requests.rotate(next, root, ranks));
                    leaders[top] = next;
                    sizes[top++] = partSize;
                    next += partSize;
                }
                size = keep;
            }
        }
        return tree;
    }
}
