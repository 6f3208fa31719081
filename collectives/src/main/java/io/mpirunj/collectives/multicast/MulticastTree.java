package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * An ordered multicast tree (children in the order the parent sends to them) and its
 * translation into a schedule. O(ranks) memory; emission is O(ranks x segments).
 *
 * <p>Each node's program is, for every unit (the whole buffer, or each segment in order):
 * receive it from the parent, then send it to each child in order. Steps are the earliest round
 * each message can travel in the round model (one send per port per round; data received in a
 * round is forwarded from the next).
 */
final class MulticastTree {

    private final int ranks;
    private final int root;
    private final int[] parent;
    private final int[] firstChild;
    private final int[] lastChild;
    private final int[] nextSibling;

    MulticastTree(int ranks, int root) {
        this.ranks = ranks;
        this.root = root;
        parent = new int[ranks];
        firstChild = new int[ranks];
        lastChild = new int[ranks];
        nextSibling = new int[ranks];
        java.util.Arrays.fill(parent, -1);
        java.util.Arrays.fill(firstChild, -1);
        java.util.Arrays.fill(lastChild, -1);
        java.util.Arrays.fill(nextSibling, -1);
    }

    /** Appends {@code child} as the next node {@code parentRank} sends to. */
    void addChild(int parentRank, int child) {
        if (child == root || parent[child] >= 0 || child == parentRank) {
            throw new IllegalStateException("rank " + child + " already placed in the tree (builder bug)");
        }
        parent[child] = parentRank;
        if (lastChild[parentRank] < 0) {
            firstChild[parentRank] = child;
        } else {
            nextSibling[lastChild[parentRank]] = child;
        }
        lastChild[parentRank] = child;
    }

    /** The whole buffer as one message per edge, one-port steps. */
    Schedule toSchedule(String algorithm, long messageBytes) {
        return toSchedule(algorithm, messageBytes, Block.WHOLE_ONLY, 1, "");
    }

    /**
     * @param units the buffer's blocks, sent in this order down every edge
     * @param ports sends per round a node may make (for the step numbers only)
     */
    Schedule toSchedule(String algorithm, long messageBytes, List<Block> units, int ports, String note) {
        Schedule.Builder b = Schedule.builder(Collective.MULTICAST, algorithm, ranks, root, messageBytes)
                .units(units).note(note);
        int segments = units.size();
        // received[v][j]: round in which v received unit j (0 for the root); kept only for the BFS frontier.
        int[][] received = new int[ranks][];
        received[root] = new int[segments];
        int[] queue = new int[ranks];
        int head = 0;
        int tail = 0;
        queue[tail++] = root;
        int[] recentSends = new int[ports];
        while (head < tail) {
            int v = queue[head++];
            int[] got = received[v];
            received[v] = null;
            for (int c = firstChild[v]; c >= 0; c = nextSibling[c]) {
                received[c] = new int[segments];
                queue[tail++] = c;
            }
            java.util.Arrays.fill(recentSends, 0);
            int sent = 0;
            int lastStep = 0;
            for (int j = 0; j < segments; j++) {
                List<Block> unit = segments == 1 ? units : List.of(units.get(j));
                if (v != root) {
                    b.recv(v, parent[v], got[j], unit);
                }
                for (int c = firstChild[v]; c >= 0; c = nextSibling[c]) {
                    // ASAP round: after the data arrived, after this port's previous send, in order.
                    int slot = sent % ports;
                    int step = Math.max(Math.max(got[j], recentSends[slot]) + 1, lastStep);
                    recentSends[slot] = step;
                    lastStep = step;
                    sent++;
                    b.send(v, c, step, unit);
                    received[c][j] = step;
                }
            }
        }
        if (tail != ranks) {
            throw new IllegalStateException("tree reaches " + tail + " of " + ranks + " ranks (builder bug)");
        }
        return b.build();
    }
}
