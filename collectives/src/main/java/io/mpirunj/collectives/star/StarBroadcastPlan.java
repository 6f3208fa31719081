package io.mpirunj.collectives.star;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.topology.StarGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A star-graph broadcast as its builders produce it, before it becomes a {@link Schedule}: the
 * sends in step order, each with its explicit path of fabric node ids (both ends included).
 * Mutable while a builder fills it; read-only afterwards.
 */
public final class StarBroadcastPlan {

    /** One unicast: in {@code step}, {@code path[0]} sends to {@code path[path.length - 1]}. */
    public record Send(int step, int[] path) {
        public int src() {
            return path[0];
        }

        public int dst() {
            return path[path.length - 1];
        }

        /** Links crossed. */
        public int hops() {
            return path.length - 1;
        }
    }

    private final int n;
    private final int source;
    private final List<Send> sends = new ArrayList<>();
    private int steps;
    private int independentSetSteps;

    StarBroadcastPlan(int n, int source) {
        this.n = n;
        this.source = source;
    }

    void add(int step, int[] path) {
        sends.add(new Send(step, path));
        steps = Math.max(steps, step);
    }

    void independentSetSteps(int t) {
        independentSetSteps = t;
    }

    /** The star graph's n (S_n). */
    public int n() {
        return n;
    }

    /** The source node id. */
    public int source() {
        return source;
    }

    /** Every send, in step order. */
    public List<Send> sends() {
        return List.copyOf(sends);
    }

    /** The number of steps (rounds of concurrent link-disjoint unicasts). */
    public int steps() {
        return steps;
    }

    /**
     * For the Hamiltonian-interval algorithms: the steps it took to inform the independent set
     * I_s (the final step follows); 0 for algorithms without that phase.
     */
    public int independentSetSteps() {
        return independentSetSteps;
    }

    /** The longest path, in links. */
    public int maxHops() {
        return sends.stream().mapToInt(Send::hops).max().orElse(0);
    }

    /** Links crossed by all sends together. */
    public long totalHops() {
        return sends.stream().mapToLong(Send::hops).sum();
    }

    /** The lower bound T_opt = ceil(log_n n!) of paper 004's lemma 1 (exact integer arithmetic). */
    public static int lowerBound(int n) {
        long nodes = 1;
        for (int i = 2; i <= n; i++) {
            nodes *= i;
        }
        int t = 0;
        long reach = 1;
        while (reach < nodes) {
            reach *= n;
            t++;
        }
        return t;
    }

    /**
     * The schedule: schedule rank r runs on fabric node {@code nodeOf[r]} (a bijection onto the
     * n! nodes); every rank receives the whole buffer once, then makes its sends in step order,
     * each with its path and the port of its first link (the {@link io.mpirunj.fabric.topology.StarGraph}
     * direction, 0..n-2).
     */
    public Schedule toSchedule(String algorithm, long messageBytes, int[] nodeOf) {
        StarGraph graph = new StarGraph(n);
        if (nodeOf.length != graph.nodes()) {
            throw new IllegalArgumentException(algorithm + " needs one rank per node of S_" + n + ": ranks="
                    + nodeOf.length + " (expected: " + graph.nodes() + ")");
        }
        int[] rankOf = new int[graph.nodes()];
        Arrays.fill(rankOf, -1);
        for (int r = 0; r < nodeOf.length; r++) {
            int node = nodeOf[r];
            if (node < 0 || node >= graph.nodes() || rankOf[node] >= 0) {
                throw new IllegalArgumentException(algorithm + ": placement puts rank " + r + " on node " + node
                        + " (expected: each of the " + graph.nodes() + " nodes exactly once)");
            }
            rankOf[node] = r;
        }
        Schedule.Builder b = Schedule.builder(Collective.BCAST, algorithm, nodeOf.length, rankOf[source], messageBytes);
        for (Send s : sends) {
            b.recv(rankOf[s.dst()], rankOf[s.src()], s.step(), Block.WHOLE_ONLY);
        }
        int[] a = new int[n];
        int[] c = new int[n];
        for (Send s : sends) {
            graph.unrank(s.path[0], a);
            graph.unrank(s.path[1], c);
            int port = graph.linkPosition(a, c) - 1;
            b.send(rankOf[s.src()], rankOf[s.dst()], s.step(), Block.WHOLE_ONLY, s.path, port);
        }
        return b.build();
    }
}
