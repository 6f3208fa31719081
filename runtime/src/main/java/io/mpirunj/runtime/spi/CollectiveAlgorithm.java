package io.mpirunj.runtime.spi;

import io.mpirunj.Buffer;
import io.mpirunj.Op;

/**
 * One algorithm for one collective operation, found through a {@link CollectiveProvider}. Each
 * operation has its own sub-interface below; an algorithm class implements exactly one of them.
 * Implementations are stateless and thread-safe.
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

    interface Barrier extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.BARRIER;
        }

        void barrier(CollChannel ch);
    }

    interface Bcast extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.BCAST;
        }

        void bcast(CollChannel ch, Buffer buf, int root);
    }

    /** Root to the ranks in {@code group} (which may include the root); only they call it. */
    interface Multicast extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.MULTICAST;
        }

        void multicast(CollChannel ch, Buffer buf, int root, int[] group);
    }

    interface Alltoall extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLTOALL;
        }

        void alltoall(CollChannel ch, Buffer send, Buffer recv);
    }

    interface Alltoallv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLTOALLV;
        }

        void alltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
                int[] recvCounts, int[] recvDispls);
    }

    interface Gather extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.GATHER;
        }

        void gather(CollChannel ch, Buffer send, Buffer recv, int root);
    }

    interface Gatherv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.GATHERV;
        }

        void gatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root);
    }

    interface Scatter extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.SCATTER;
        }

        void scatter(CollChannel ch, Buffer send, Buffer recv, int root);
    }

    interface Scatterv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.SCATTERV;
        }

        void scatterv(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root);
    }

    interface Allgather extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLGATHER;
        }

        void allgather(CollChannel ch, Buffer send, Buffer recv);
    }

    interface Allgatherv extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLGATHERV;
        }

        void allgatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs);
    }

    interface Reduce extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.REDUCE;
        }

        void reduce(CollChannel ch, Buffer send, Buffer recv, Op op, int root);
    }

    interface Allreduce extends CollectiveAlgorithm {
        default CollectiveOp op() {
            return CollectiveOp.ALLREDUCE;
        }

        void allreduce(CollChannel ch, Buffer send, Buffer recv, Op op);
    }
}
