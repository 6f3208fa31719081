package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.PairBlocks;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine behind the indirect (store-and-forward) torus all-to-alls: it runs a sequence of
 * lock-step exchange steps over what every node holds and writes the combined messages as a
 * {@link Schedule}.
 *
 * <p>What a node holds is a few products {@code origins × destinations} of sorted rank arrays.
 * In a step every sending node x forwards to its partner the blocks whose destination's key (a
 * per-step array over destination ranks) differs from x's own key — "my target lies on the other
 * side" — and keeps the rest. Because the filtered arrays are memoised and interned, nodes in the
 * same situation share them, and a node's products with equal destination sets are merged (their
 * origin sets united); a 64×64 SEM (16.7 M blocks) then needs a few thousand distinct arrays.
 * Messages are {@link PairBlocks} views over the same arrays.
 *
 * <p>Logical nodes and real ranks: the steps run on a logical {@code side × side} torus. When
 * the real torus is smaller (virtual nodes, paper 001 §4), every logical node is emulated by the
 * real node {@code (row mod n, col mod n)}; virtual nodes start with nothing and are nobody's
 * destination; messages between two logical nodes of the same real node are not sent; a real node
 * with several sends in one logical step sends them in consecutive steps (the schedule's step
 * numbers count those extra start-ups), and paths are left to the fabric's routing.
 */
final class CombiningExchange {

    /** One message of a step, in logical nodes. */
    private record Move(int from, int to, int[] path, PairBlocks blocks) {
    }

    /** One message of the schedule: real ranks, schedule step, explicit path (none with virtual nodes). */
    private record Sent(int from, int to, int step, int[] path, PairBlocks blocks) {
    }

    /** Memo key: filter destination set {@code d} by {@code keys} against {@code nodeKey} (arrays by identity). */
    private record FilterKey(int[] keys, int[] d, int nodeKey) {
    }

    /** An int array compared by content, for interning. */
    private record Content(int[] values, int hash) {
        Content(int[] values) {
            this(values, Arrays.hashCode(values));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Content c && c.hash == hash && Arrays.equals(c.values, values);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private static final class Product {
        int[] origins;
        final int[] destinations;

        Product(int[] origins, int[] destinations) {
            this.origins = origins;
            this.destinations = destinations;
        }
    }

    private final int side;
    private final int realSide;
    private final List<List<Product>> held;
    private final List<List<Move>> steps = new ArrayList<>();
    private final Map<Content, int[]> interned = new HashMap<>();
    private final Map<FilterKey, int[][]> filtered = new HashMap<>();

    /** A move of the pending step: x sends the blocks whose destination key differs from {@code nodeKey}. */
    private record Pending(int from, int to, int[] path, int[] keys, int nodeKey) {
    }

    private final List<Pending> pending = new ArrayList<>();

    /**
     * @param side     the logical torus side the steps run on
     * @param realSide the real torus side ({@code <= side}); logical nodes outside it are virtual
     */
    CombiningExchange(int side, int realSide) {
        if (realSide < 1 || realSide > side) {
            throw new IllegalArgumentException("real side " + realSide + " (expected: 1.." + side + ")");
        }
        this.side = side;
        this.realSide = realSide;
        int logical = side * side;
        int[] everyone = new int[realSide * realSide];
        for (int d = 0; d < everyone.length; d++) {
            everyone[d] = d;
        }
        everyone = intern(everyone);
        held = new ArrayList<>(logical);
        for (int x = 0; x < logical; x++) {
            List<Product> own = new ArrayList<>(4);
            int real = realOf(x);
            if (!isVirtual(x)) {
                own.add(new Product(intern(new int[] {real}), everyone));
            }
            held.add(own);
        }
    }

    int side() {
        return side;
    }

    boolean padded() {
        return side != realSide;
    }

    /** The logical node id of (row, col), both taken modulo the side. */
    int node(int row, int col) {
        return Math.floorMod(row, side) * side + Math.floorMod(col, side);
    }

    /** True for a logical node that is not a real one (only with virtual nodes). */
    boolean isVirtual(int x) {
        return x / side >= realSide || x % side >= realSide;
    }

    /** The real rank that owns (or emulates) logical node x. */
    int realOf(int x) {
        return (x / side % realSide) * realSide + (x % side % realSide);
    }

    /**
     * Per-destination key array for the coming steps: {@code keys[d]} for every real rank d,
     * computed from d's logical row and column.
     */
    int[] destinationKeys(java.util.function.IntBinaryOperator rowColKey) {
        int[] keys = new int[realSide * realSide];
        for (int d = 0; d < keys.length; d++) {
            keys[d] = rowColKey.applyAsInt(d / realSide, d % realSide);
        }
        return keys;
    }

    /**
     * Adds a move to the pending step: x sends to {@code to} every block whose destination key
     * differs from {@code nodeKey}, along {@code hops} links in dimension {@code dim} (0: along
     * the row, the column changes; 1: along the column) in direction {@code sign}.
     */
    void move(int x, int to, int dim, int sign, int hops, int[] keys, int nodeKey) {
        pending.add(new Pending(x, to, straightPath(x, dim, sign, hops), keys, nodeKey));
    }

    /** Runs the pending moves as one lock-step step (sends computed first, then delivered). */
    void step() {
        List<Move> moves = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            int x = p.from;
            int[] keys = p.keys;
            int nodeKey = p.nodeKey;
            List<int[]> o = new ArrayList<>();
            List<int[]> d = new ArrayList<>();
            List<Product> keep = new ArrayList<>(held.get(x).size());
            int real = realOf(x);
            for (Product product : held.get(x)) {
                int[][] split = split(keys, product.destinations, nodeKey);
                int[] moving = split[1];
                if (Arrays.binarySearch(moving, real) >= 0) {
                    // Blocks that reached their destination stay, even where the pattern passes
                    // them on (4x4 cells: a level-1 master that is not its own level-2 collector;
                    // virtual nodes): the destination must receive each block exactly once.
                    moving = intern(without(moving, real));
                    keep.add(new Product(product.origins, intern(new int[] {real})));
                }
                if (split[0].length > 0) {
                    keep.add(split[0] == product.destinations ? product : new Product(product.origins, split[0]));
                }
                if (moving.length > 0) {
                    o.add(product.origins);
                    d.add(moving);
                }
            }
            held.set(x, keep);
            if (!o.isEmpty()) {
                moves.add(new Move(x, p.to, p.path, PairBlocks.of(o, d)));
            }
        }
        pending.clear();
        Map<Integer, List<Move>> arriving = new TreeMap<>();
        for (Move m : moves) {
            arriving.computeIfAbsent(m.to, k -> new ArrayList<>(1)).add(m);
        }
        for (Map.Entry<Integer, List<Move>> e : arriving.entrySet()) {
            receive(e.getKey(), e.getValue());
        }
        if (!moves.isEmpty()) {
            steps.add(moves);
        }
    }

    /**
     * Adds the arriving products to x's and merges those with the same destination set (one
     * union per set, all origin arrays at once: merging pairwise would be quadratic).
     */
    private void receive(int x, List<Move> arriving) {
        List<Product> into = held.get(x);
        Map<int[], Integer> groupOf = new IdentityHashMap<>();
        List<List<int[]>> origins = new ArrayList<>();
        List<int[]> destinations = new ArrayList<>();
        for (Product p : into) {
            group(groupOf, origins, destinations, p.origins, p.destinations);
        }
        for (Move m : arriving) {
            for (int p = 0; p < m.blocks.productCount(); p++) {
                group(groupOf, origins, destinations, m.blocks.origins(p), m.blocks.destinations(p));
            }
        }
        List<Product> merged = new ArrayList<>(destinations.size());
        for (int g = 0; g < destinations.size(); g++) {
            merged.add(new Product(union(origins.get(g)), destinations.get(g)));
        }
        held.set(x, merged);
    }

    private static void group(Map<int[], Integer> groupOf, List<List<int[]>> origins, List<int[]> destinations,
                              int[] o, int[] d) {
        Integer g = groupOf.get(d);
        if (g == null) {
            groupOf.put(d, destinations.size());
            destinations.add(d);
            List<int[]> list = new ArrayList<>(2);
            list.add(o);
            origins.add(list);
        } else {
            origins.get(g).add(o);
        }
    }

    private static int[] without(int[] sorted, int value) {
        int at = Arrays.binarySearch(sorted, value);
        int[] out = new int[sorted.length - 1];
        System.arraycopy(sorted, 0, out, 0, at);
        System.arraycopy(sorted, at + 1, out, at, out.length - at);
        return out;
    }

    /** {keep, move} of {@code d}: destinations whose key equals {@code nodeKey} stay. */
    private int[][] split(int[] keys, int[] d, int nodeKey) {
        return filtered.computeIfAbsent(new FilterKey(keys, d, nodeKey), k -> {
            int stay = 0;
            for (int r : d) {
                stay += keys[r] == nodeKey ? 1 : 0;
            }
            if (stay == d.length) {
                return new int[][] {d, new int[0]};
            }
            int[] keep = new int[stay];
            int[] move = new int[d.length - stay];
            int a = 0;
            int b = 0;
            for (int r : d) {
                if (keys[r] == nodeKey) {
                    keep[a++] = r;
                } else {
                    move[b++] = r;
                }
            }
            return new int[][] {intern(keep), intern(move)};
        });
    }

    /** The sorted union of origin sets (they are disjoint: a block is in one place at a time). */
    private int[] union(List<int[]> sets) {
        if (sets.size() == 1) {
            return sets.get(0);
        }
        int total = 0;
        for (int[] set : sets) {
            total += set.length;
        }
        int[] out = new int[total];
        int n = 0;
        for (int[] set : sets) {
            System.arraycopy(set, 0, out, n, set.length);
            n += set.length;
        }
        Arrays.sort(out);
        int distinct = total == 0 ? 0 : 1;
        for (int i = 1; i < total; i++) {
            if (out[i] != out[distinct - 1]) {
                out[distinct++] = out[i];
            }
        }
        return intern(distinct == total ? out : Arrays.copyOf(out, distinct));
    }

    private int[] intern(int[] values) {
        return interned.computeIfAbsent(new Content(values), c -> values);
    }

    /** Logical node ids from x, {@code hops} links along {@code dim} in direction {@code sign}, both ends. */
    private int[] straightPath(int x, int dim, int sign, int hops) {
        int[] path = new int[hops + 1];
        int row = x / side;
        int col = x % side;
        for (int h = 0; h <= hops; h++) {
            path[h] = dim == 0 ? node(row, col + sign * h) : node(row + sign * h, col);
        }
        return path;
    }

    /** True when every block ended at its destination (the engine's own bookkeeping). */
    boolean everythingDelivered() {
        for (int x = 0; x < held.size(); x++) {
            for (Product p : held.get(x)) {
                int real = realOf(x);
                if (p.destinations.length != 1 || p.destinations[0] != real) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The steps so far as a schedule of combined messages over the real ranks. */
    Schedule schedule(String algorithm, long blockBytes, String note) {
        int ranks = realSide * realSide;
        Schedule.Builder b = Schedule.builder(Collective.ALLTOALL, algorithm, ranks, -1, blockBytes).note(note)
                .copyOwnPairBlocks();
        int step = 0;
        for (List<Move> moves : steps) {
            // With emulation a real node may have several sends in one logical step: it takes
            // one start-up each, so the step grows into as many consecutive schedule steps.
            int[] sendsSoFar = new int[ranks];
            List<Sent> sent = new ArrayList<>(moves.size());
            int width = 1;
            for (Move m : moves) {
                int from = realOf(m.from);
                int to = realOf(m.to);
                PairBlocks blocks = from == to ? null : withoutOrigin(m.blocks, to);
                if (blocks == null) {
                    continue;
                }
                int k = sendsSoFar[from]++;
                width = Math.max(width, k + 1);
                sent.add(new Sent(from, to, step + 1 + k, padded() ? new int[0] : m.path, blocks));
            }
            for (Sent s : sent) { // every send of the step before its receives, as the builder wants them
                b.send(s.from, s.to, s.step, s.blocks, s.path, Instruction.ANY_PORT);
            }
            for (Sent s : sent) {
                b.recv(s.to, s.from, s.step, s.blocks);
            }
            step += width;
        }
        return b.build();
    }

    /**
     * {@code blocks} without those whose origin is {@code receiver} (null when nothing is left): a
     * rank holds its own blocks in its send buffer from the start, so one passing back through it (4x4
     * cells: a level-1 master hands its row-mate's blocks on to a level-2 collector that routes them
     * back; virtual nodes: a node emulated by the origin) needs no transfer, and receiving it would
     * write into that rank's send buffer.
     */
    private static PairBlocks withoutOrigin(PairBlocks blocks, int receiver) {
        List<int[]> origins = new ArrayList<>(blocks.productCount());
        List<int[]> destinations = new ArrayList<>(blocks.productCount());
        boolean changed = false;
        for (int p = 0; p < blocks.productCount(); p++) {
            int[] o = blocks.origins(p);
            if (Arrays.binarySearch(o, receiver) >= 0) {
                changed = true;
                o = without(o, receiver);
            }
            if (o.length > 0) {
                origins.add(o);
                destinations.add(blocks.destinations(p));
            }
        }
        if (!changed) {
            return blocks;
        }
        return origins.isEmpty() ? null : PairBlocks.of(origins, destinations);
    }
}
