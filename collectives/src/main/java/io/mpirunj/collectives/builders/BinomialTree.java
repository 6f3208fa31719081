package io.mpirunj.collectives.builders;

/**
 * Rank arithmetic shared by the binomial-tree algorithms. Ranks are "virtual": relative to the
 * root, so the root is virtual rank 0. In a binomial tree over {@code p} ranks, virtual rank
 * {@code v > 0} has parent {@code v - lowbit(v)} and children {@code v + m} for every power of two
 * {@code m < lowbit(v)} with {@code v + m < p}; the root's children are {@code m} for every power
 * of two {@code m < p}. The subtree of {@code v} is the contiguous range
 * {@code [v, v + subtreeSize(v, p))}.
 */
final class BinomialTree {
    private BinomialTree() {
    }

    /** The lowest set bit of {@code v}, or the smallest power of two &ge; {@code p} for the root. */
    static int childLimit(int v, int p) {
        if (v == 0) {
            int m = 1;
            while (m < p) {
                m <<= 1;
            }
            return m;
        }
        return v & -v;
    }

    /** Number of ranks in the subtree rooted at virtual rank {@code v} (itself included). */
    static int subtreeSize(int v, int p) {
        return v == 0 ? p : Math.min(v & -v, p - v);
    }

    /** Virtual rank of {@code v}'s parent; undefined for the root. */
    static int parent(int v) {
        return v - (v & -v);
    }

    static int toVirtual(int rank, int root, int p) {
        return (rank - root + p) % p;
    }

    static int toReal(int v, int root, int p) {
        return (v + root) % p;
    }

    /** The round in which {@code v} receives from its parent (1-based): its lowest set bit's position + 1. */
    static int upStep(int v) {
        return Integer.numberOfTrailingZeros(v) + 1;
    }

    /**
     * The round of the edge from a node to its child {@code v + mask} when data flows down with the
     * largest subtree first: the root's first send is round 1.
     */
    static int downStep(int mask, int p) {
        return Integer.numberOfTrailingZeros(childLimit(0, p)) - Integer.numberOfTrailingZeros(mask);
    }
}
