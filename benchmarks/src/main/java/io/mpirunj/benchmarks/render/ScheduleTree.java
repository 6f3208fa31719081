package io.mpirunj.benchmarks.render;

import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The delivery tree of a simulated rooted schedule: who first delivered each rank its data,
 * with each parent's children in the order the parent sends to them. Segmented schedules move
 * several messages down one edge; an edge then spans the first send's start to the last
 * delivery. Copies dropped by a RECV_FIRST_OF, and any second parent, become {@link #extras()}.
 */
final class ScheduleTree {

    /** One parent-child edge; {@code order} is 1-based among the parent's children. */
    record Edge(int parent, int child, int order, int step, double start, double end, int messages, boolean dropped) {
    }

    private final int ranks;
    private final int root;
    private final int[] parent;
    private final List<List<Edge>> children;
    private final List<Edge> extras;
    private final int[] depth;
    private final List<Integer> roots;

    private ScheduleTree(int ranks, int root, int[] parent, List<List<Edge>> children, List<Edge> extras) {
        this.ranks = ranks;
        this.root = root;
        this.parent = parent;
        this.children = children;
        this.extras = extras;
        this.depth = new int[ranks];
        this.roots = new ArrayList<>();
        roots.add(root);
        for (int r = 0; r < ranks; r++) {
            if (r != root && parent[r] < 0) {
                roots.add(r);
            }
        }
        for (int r : roots) {
            setDepth(r, 0);
        }
    }

    private void setDepth(int node, int d) {
        // Iterative: chains of thousands of ranks must not overflow the stack.
        List<int[]> stack = new ArrayList<>();
        stack.add(new int[] {node, d});
        while (!stack.isEmpty()) {
            int[] top = stack.remove(stack.size() - 1);
            depth[top[0]] = top[1];
            for (Edge e : children.get(top[0])) {
                stack.add(new int[] {e.child(), top[1] + 1});
            }
        }
    }

    static ScheduleTree of(Simulation sim) {
        Schedule s = sim.schedule();
        if (!s.collective().rooted()) {
            throw new IllegalArgumentException("a tree picture needs a rooted schedule (got "
                    + s.collective().label() + " " + s.algorithm() + ")");
        }
        int ranks = s.ranks();
        Map<Long, Aggregate> pairs = new LinkedHashMap<>();
        for (Message m : sim.messages()) {
            pairs.computeIfAbsent(((long) m.src() << 32) | m.dst(), key -> new Aggregate(m.src(), m.dst(), m.step()))
                    .add(m);
        }
        // The tree parent of d: the pair whose first kept delivery to d is earliest.
        Aggregate[] best = new Aggregate[ranks];
        for (Aggregate a : pairs.values()) {
            if (a.kept > 0 && a.dst != s.root()
                    && (best[a.dst] == null || a.firstKeptEnd < best[a.dst].firstKeptEnd)) {
                best[a.dst] = a;
            }
        }
        int[] parent = new int[ranks];
        java.util.Arrays.fill(parent, -1);
        List<List<Aggregate>> kids = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            kids.add(new ArrayList<>());
        }
        List<Edge> extras = new ArrayList<>();
        for (Aggregate a : pairs.values()) {
            if (best[a.dst] == a) {
                parent[a.dst] = a.src;
                kids.get(a.src).add(a);
            } else {
                extras.add(a.edge(0));
            }
        }
        List<List<Edge>> children = new ArrayList<>(ranks);
        for (int p = 0; p < ranks; p++) {
            List<Aggregate> list = kids.get(p);
            int[] sendIndex = firstSendIndex(s.program(p), ranks);
            list.sort(Comparator.comparingInt((Aggregate a) -> sendIndex[a.dst]).thenComparingDouble(a -> a.start));
            List<Edge> edges = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                edges.add(list.get(i).edge(i + 1));
            }
            children.add(edges);
        }
        return new ScheduleTree(ranks, s.root(), parent, children, extras);
    }

    private static int[] firstSendIndex(List<Instruction> program, int ranks) {
        int[] index = new int[ranks];
        java.util.Arrays.fill(index, Integer.MAX_VALUE);
        for (int i = 0; i < program.size(); i++) {
            Instruction in = program.get(i);
            if (in.isSend() && index[in.peer()] == Integer.MAX_VALUE) {
                index[in.peer()] = i;
            }
        }
        return index;
    }

    int ranks() {
        return ranks;
    }

    int root() {
        return root;
    }

    /** The root first, then any rank nobody delivered to (a broken or partial schedule). */
    List<Integer> roots() {
        return roots;
    }

    int parent(int rank) {
        return parent[rank];
    }

    List<Edge> children(int rank) {
        return children.get(rank);
    }

    List<Edge> extras() {
        return extras;
    }

    int depth(int rank) {
        return depth[rank];
    }

    int maxDepth() {
        int max = 0;
        for (int d : depth) {
            max = Math.max(max, d);
        }
        return max;
    }

    /** Largest step on any edge (0 when there are no edges). */
    int maxStep() {
        int max = 0;
        for (List<Edge> list : children) {
            for (Edge e : list) {
                max = Math.max(max, e.step());
            }
        }
        return max;
    }

    private static final class Aggregate {
        final int src;
        final int dst;
        final int step;
        double start = Double.POSITIVE_INFINITY;
        double end = Double.NEGATIVE_INFINITY;
        double firstKeptEnd = Double.POSITIVE_INFINITY;
        int count;
        int kept;

        Aggregate(int src, int dst, int step) {
            this.src = src;
            this.dst = dst;
            this.step = step;
        }

        void add(Message m) {
            start = Math.min(start, m.start());
            end = Math.max(end, m.end());
            count++;
            if (!m.dropped()) {
                kept++;
                firstKeptEnd = Math.min(firstKeptEnd, m.end());
            }
        }

        Edge edge(int order) {
            return new Edge(src, dst, order, step, start, end, count, kept == 0);
        }
    }
}
