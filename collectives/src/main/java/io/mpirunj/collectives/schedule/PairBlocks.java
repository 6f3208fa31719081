package io.mpirunj.collectives.schedule;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.RandomAccess;

/**
 * A compact, immutable list of all-to-all blocks: the union of products
 * {@code origins × destinations} (sorted rank arrays), without the diagonal pairs
 * {@code (r, r)} — a rank's block for itself never travels. Combined-message algorithms (SEM
 * moves up to 2N² blocks per message, 16.7 M blocks on a 64×64 torus) would need hundreds of
 * millions of {@link Block.Pair} objects as plain lists; here a message costs a few array
 * references, and the arrays are shared between messages.
 *
 * <p>It is a {@code List<Block>} so every consumer of {@link Instruction#blocks()} works
 * unchanged ({@link Block.Pair} objects are made on the fly); fast paths read
 * {@link #productCount()}, {@link #origins(int)} and {@link #destinations(int)} instead.
 * {@link Instruction} keeps it as it is (no copy). The caller must not modify the arrays.
 */
public final class PairBlocks extends AbstractList<Block> implements RandomAccess {

    private final int[][] origins;
    private final int[][] destinations;
    /** start[p] = index of product p's first block; start[products] = size. */
    private final int[] start;

    private PairBlocks(int[][] origins, int[][] destinations) {
        this.origins = origins;
        this.destinations = destinations;
        this.start = new int[origins.length + 1];
        for (int p = 0; p < origins.length; p++) {
            long n = (long) origins[p].length * destinations[p].length - common(origins[p], destinations[p]);
            if (start[p] + n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " blocks in one message");
            }
            start[p + 1] = start[p] + (int) n;
        }
    }

    /**
     * The blocks of the given products (parallel lists of sorted, duplicate-free rank arrays;
     * the arrays are kept, not copied).
     */
    public static PairBlocks of(List<int[]> origins, List<int[]> destinations) {
        if (origins.size() != destinations.size()) {
            throw new IllegalArgumentException(origins.size() + " origin sets for " + destinations.size()
                    + " destination sets (expected: as many)");
        }
        for (int p = 0; p < origins.size(); p++) {
            checkSorted("origins", origins.get(p));
            checkSorted("destinations", destinations.get(p));
        }
        return new PairBlocks(origins.toArray(new int[0][]), destinations.toArray(new int[0][]));
    }

    /** The blocks {@code origins × destinations} of one product. */
    public static PairBlocks of(int[] origins, int[] destinations) {
        return of(List.of(origins), List.of(destinations));
    }

    private static void checkSorted(String what, int[] ranks) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] < 0 || (i > 0 && ranks[i] <= ranks[i - 1])) {
                throw new IllegalArgumentException(what + " " + Arrays.toString(ranks)
                        + " (expected: ranks >= 0, ascending, no duplicates)");
            }
        }
    }

    /** How many ranks two sorted arrays share. */
    private static int common(int[] a, int[] b) {
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                n++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return n;
    }

    public int productCount() {
        return origins.length;
    }

    /** Origins of product {@code p} (shared: do not modify). */
    public int[] origins(int p) {
        return origins[p];
    }

    /** Destinations of product {@code p} (shared: do not modify). */
    public int[] destinations(int p) {
        return destinations[p];
    }

    @Override
    public int size() {
        return start[origins.length];
    }

    /** Random access walks the product's rows (fine for exports and tests; bulk readers iterate). */
    @Override
    public Block get(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("index " + index + " (size " + size() + ")");
        }
        int p = Arrays.binarySearch(start, index);
        p = p >= 0 ? p : -p - 2;
        while (start[p + 1] == index) { // skip empty products
            p++;
        }
        int rest = index - start[p];
        int[] to = destinations[p];
        for (int o : origins[p]) {
            int row = to.length - (Arrays.binarySearch(to, o) >= 0 ? 1 : 0);
            if (rest < row) {
                for (int d : to) {
                    if (d != o && rest-- == 0) {
                        return new Block.Pair(o, d);
                    }
                }
            }
            rest -= row;
        }
        throw new IllegalStateException("unreachable");
    }

    @Override
    public Iterator<Block> iterator() {
        return new Iterator<>() {
            int p;
            int oi;
            int di = -1;

            {
                advance();
            }

            private void advance() {
                while (p < origins.length) {
                    di++;
                    if (oi < origins[p].length && di >= destinations[p].length) {
                        oi++;
                        di = 0;
                    }
                    if (oi >= origins[p].length || destinations[p].length == 0) {
                        p++;
                        oi = 0;
                        di = -1;
                        continue;
                    }
                    if (origins[p][oi] != destinations[p][di]) {
                        return;
                    }
                }
            }

            @Override
            public boolean hasNext() {
                return p < origins.length;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block b = new Block.Pair(origins[p][oi], destinations[p][di]);
                advance();
                return b;
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        return o == this || super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
