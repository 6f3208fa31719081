package io.mpirunj.launcher.hosts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which node each rank runs on, as {@code mpirun --map-by} places them.
 *
 * <ul>
 *   <li>{@link MapBy#SLOT} (the default): fill the first node's slots, then the next node's, ...
 *   <li>{@link MapBy#NODE}: one rank per node in turn, skipping nodes whose slots are full.
 * </ul>
 *
 * More ranks than slots is an error unless oversubscribing, which goes round again in the same order.
 */
public final class Placement {
    /** The {@code --map-by} policies. */
    public enum MapBy {
        SLOT, NODE;

        /** {@code slot} or {@code node}. */
        public static MapBy parse(String s) {
            try {
                return valueOf(s.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--map-by " + s + " (expected: slot or node)");
            }
        }
    }

    private final List<Host> hosts;
    private final int[] nodeOfRank;

    private Placement(List<Host> hosts, int[] nodeOfRank) {
        this.hosts = List.copyOf(hosts);
        this.nodeOfRank = nodeOfRank;
    }

    /** Every rank on one local node. */
    public static Placement local(int np) {
        return new Placement(List.of(new Host("localhost", np)), new int[np]);
    }

    /** Places {@code np} ranks on {@code hosts}. */
    public static Placement of(List<Host> hosts, int np, MapBy by, boolean oversubscribe) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no hosts to place ranks on");
        }
        int slots = totalSlots(hosts);
        if (np > slots && !oversubscribe) {
            throw new IllegalArgumentException("-np " + np + " is more than the " + slots + " slots of "
                    + hosts.size() + (hosts.size() == 1 ? " host" : " hosts") + " (add slots, or --oversubscribe)");
        }
        int[] node = new int[np];
        int[] used = new int[hosts.size()];
        int rank = 0;
        // each round places up to every host's slots; oversubscription repeats the round
        while (rank < np) {
            if (by == MapBy.SLOT) {
                for (int h = 0; h < hosts.size() && rank < np; h++) {
                    for (int s = 0; s < hosts.get(h).slots() && rank < np; s++) {
                        node[rank++] = h;
                    }
                }
            } else {
                Arrays.fill(used, 0);
                boolean placed = true;
                while (placed && rank < np) {
                    placed = false;
                    for (int h = 0; h < hosts.size() && rank < np; h++) {
                        if (used[h] < hosts.get(h).slots()) {
                            used[h]++;
                            node[rank++] = h;
                            placed = true;
                        }
                    }
                }
            }
        }
        return new Placement(hosts, node);
    }

    public static int totalSlots(List<Host> hosts) {
        long n = 0;
        for (Host h : hosts) {
            n += h.slots();
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    public int size() {
        return nodeOfRank.length;
    }

    public List<Host> hosts() {
        return hosts;
    }

    /** The node (index into {@link #hosts()}) of {@code rank}. */
    public int nodeOf(int rank) {
        return nodeOfRank[rank];
    }

    public Host hostOf(int rank) {
        return hosts.get(nodeOfRank[rank]);
    }

    /** The ranks on node {@code node}, ascending. */
    public List<Integer> ranksOn(int node) {
        List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < nodeOfRank.length; r++) {
            if (nodeOfRank[r] == node) {
                ranks.add(r);
            }
        }
        return ranks;
    }

    /** {@code rank}'s index among the ranks of its node (OMPI_COMM_WORLD_LOCAL_RANK). */
    public int localRank(int rank) {
        int n = 0;
        for (int r = 0; r < rank; r++) {
            if (nodeOfRank[r] == nodeOfRank[rank]) {
                n++;
            }
        }
        return n;
    }

    /** How many ranks share {@code rank}'s node (OMPI_COMM_WORLD_LOCAL_SIZE). */
    public int localSize(int rank) {
        return ranksOn(nodeOfRank[rank]).size();
    }

    /** True if some rank runs on a host that needs the launch agent. */
    public boolean hasRemoteRanks() {
        for (int r = 0; r < nodeOfRank.length; r++) {
            if (!hostOf(r).isLocal()) {
                return true;
            }
        }
        return false;
    }

    /** One line per node: {@code name: ranks 0-3}, for the verbose report. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (int h = 0; h < hosts.size(); h++) {
            List<Integer> ranks = ranksOn(h);
            if (!ranks.isEmpty()) {
                sb.append(sb.length() == 0 ? "" : "; ").append(hosts.get(h).name()).append(": ranks ")
                        .append(Ranges.of(ranks));
            }
        }
        return sb.toString();
    }
}
