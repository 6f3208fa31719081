package io.mpirunj.runtime.spi;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;

/**
 * One algorithm for one collective operation, found through a {@link CollectiveProvider}. Each
 * operation has its own sub-interface below; an algorithm class implements exactly one of them.
 * Implementations are stateless and thread-safe.
 *
 * <p>Each operation also has a non-blocking start ({@code ibcast}, {@code iallreduce}, ...) that
 * returns a {@link Request}. The channel it gets has tags of its own for that one call, so it never
 * meets a blocking collective or another non-blocking one. By default it runs the blocking algorithm
 * on a background thread ({@link BackgroundCollective}); schedule-based algorithms override it.
 */
public interface CollectiveAlgorithm {
    CollectiveOp op();

    /** Kebab-case name, unique per operation, used by {@code --coll op=name}. */
    String name();

    /** One line for {@code --list-algorithms}. */
    String description();

    /** The default choice for an operation is its registered algorithm of highest priority. */
    default int priority() {
        return 0;
    }

    /** What it needs or does (see {@link AlgorithmTrait}); the catalogue's entry says. Default: none. */
    default java.util.Set<AlgorithmTrait> traits() {
        return java.util.Set.of();
    }

    /**
     * This algorithm with segments of {@code segmentBytes} (from a rules file), for
     * {@link AlgorithmTrait#SEGMENTED} ones; others ignore it and return themselves.
     */
    default CollectiveAlgorithm withSegmentBytes(long segmentBytes) {
        return this;
    }

    /**
     * A family of algorithms forced as {@code name:argument} ({@code --coll bcast=file:FILE.json}):
     * the registry hands the argument to the entry registered under {@code name}, which returns the
     * algorithm to run or throws an {@link IllegalArgumentException} with a one-line reason.
     */
    interface Parameterized extends CollectiveAlgorithm {
        CollectiveAlgorithm withArgument(String argument);
    }

    interface Barrier extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.BARRIER;
        }

        void barrier(CollChannel ch);

        /** Starts a barrier; {@code ch}'s tags are this call's own. Default: {@link BackgroundCollective}. */
        default Request ibarrier(CollChannel ch) {
            return BackgroundCollective.run(() -> barrier(ch));
        }
    }

    interface Bcast extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.BCAST;
        }

        void bcast(CollChannel ch, Buffer buf, int root);

        /** Starts a bcast; {@code ch}'s tags are this call's own. Default: {@link BackgroundCollective}. */
        default Request ibcast(CollChannel ch, Buffer buf, int root) {
            return BackgroundCollective.run(() -> bcast(ch, buf, root));
        }
    }

    /** Root to the ranks in {@code group} (which may include the root); only they call it. */
    interface Multicast extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.MULTICAST;
        }

        void multicast(CollChannel ch, Buffer buf, int root, int[] group);

        default Request imulticast(CollChannel ch, Buffer buf, int root, int[] group) {
            return BackgroundCollective.run(() -> multicast(ch, buf, root, group));
        }
    }

    interface Alltoall extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLTOALL;
        }

        void alltoall(CollChannel ch, Buffer send, Buffer recv);

        default Request ialltoall(CollChannel ch, Buffer send, Buffer recv) {
            return BackgroundCollective.run(() -> alltoall(ch, send, recv));
        }
    }

    interface Alltoallv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLTOALLV;
        }

        void alltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
                int[] recvCounts, int[] recvDispls);

        default Request ialltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
                int[] recvCounts, int[] recvDispls) {
            return BackgroundCollective.run(() -> alltoallv(ch, send, sendCounts, sendDispls, recv, recvCounts,
                    recvDispls));
        }
    }

    interface Gather extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.GATHER;
        }

        void gather(CollChannel ch, Buffer send, Buffer recv, int root);

        default Request igather(CollChannel ch, Buffer send, Buffer recv, int root) {
            return BackgroundCollective.run(() -> gather(ch, send, recv, root));
        }
    }

    interface Gatherv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.GATHERV;
        }

        void gatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root);

        default Request igatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root) {
            return BackgroundCollective.run(() -> gatherv(ch, send, recv, recvCounts, displs, root));
        }
    }

    interface Scatter extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.SCATTER;
        }

        void scatter(CollChannel ch, Buffer send, Buffer recv, int root);

        default Request iscatter(CollChannel ch, Buffer send, Buffer recv, int root) {
            return BackgroundCollective.run(() -> scatter(ch, send, recv, root));
        }
    }

    interface Scatterv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.SCATTERV;
        }

        void scatterv(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root);

        default Request iscatterv(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root) {
            return BackgroundCollective.run(() -> scatterv(ch, send, sendCounts, displs, recv, root));
        }
    }

    interface Allgather extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLGATHER;
        }

        void allgather(CollChannel ch, Buffer send, Buffer recv);

        default Request iallgather(CollChannel ch, Buffer send, Buffer recv) {
            return BackgroundCollective.run(() -> allgather(ch, send, recv));
        }
    }

    interface Allgatherv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLGATHERV;
        }

        void allgatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs);

        default Request iallgatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs) {
            return BackgroundCollective.run(() -> allgatherv(ch, send, recv, recvCounts, displs));
        }
    }

    interface Reduce extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.REDUCE;
        }

        void reduce(CollChannel ch, Buffer send, Buffer recv, Op op, int root);

        default Request ireduce(CollChannel ch, Buffer send, Buffer recv, Op op, int root) {
            return BackgroundCollective.run(() -> reduce(ch, send, recv, op, root));
        }
    }

    interface Allreduce extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLREDUCE;
        }

        void allreduce(CollChannel ch, Buffer send, Buffer recv, Op op);

        default Request iallreduce(CollChannel ch, Buffer send, Buffer recv, Op op) {
            return BackgroundCollective.run(() -> allreduce(ch, send, recv, op));
        }
    }

    /** Block i of the element-wise reduction (recvCounts[i] elements, blocks end to end) lands on rank i. */
    interface ReduceScatter extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.REDUCE_SCATTER;
        }

        void reduceScatter(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, Op op);

        default Request ireduceScatter(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, Op op) {
            return BackgroundCollective.run(() -> reduceScatter(ch, send, recv, recvCounts, op));
        }
    }

    /** As {@link ReduceScatter} with every block {@code recv.count()} elements. */
    interface ReduceScatterBlock extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.REDUCE_SCATTER_BLOCK;
        }

        void reduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op);

        default Request ireduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op) {
            return BackgroundCollective.run(() -> reduceScatterBlock(ch, send, recv, op));
        }
    }

    /** Inclusive prefix reduction: rank r gets x0 op ... op x(r). */
    interface Scan extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.SCAN;
        }

        void scan(CollChannel ch, Buffer send, Buffer recv, Op op);

        default Request iscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
            return BackgroundCollective.run(() -> scan(ch, send, recv, op));
        }
    }

    /** Exclusive prefix reduction: rank r &gt; 0 gets x0 op ... op x(r-1); rank 0's recv is not written. */
    interface Exscan extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.EXSCAN;
        }

        void exscan(CollChannel ch, Buffer send, Buffer recv, Op op);

        default Request iexscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
            return BackgroundCollective.run(() -> exscan(ch, send, recv, op));
        }
    }
}
