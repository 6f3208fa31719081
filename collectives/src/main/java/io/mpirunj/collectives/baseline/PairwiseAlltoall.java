package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.AlltoallBuilders;

/**
 * Pairwise-exchange all-to-all: a rank copies its own block locally, then in step
 * {@code s = 1 .. p-1} sends block {@code (rank + s) mod p} to that rank while receiving block
 * {@code (rank - s) mod p} from that rank. Runs as the {@link AlltoallBuilders#pairwise} schedule:
 * every receive is posted at once and the sends leave in step order (the schedule IR has no
 * "wait for the previous step" edge without data, so the classic one-step-in-flight bound is not kept).
 *
 * <p>Contract: send and recv each hold {@code p} blocks of {@code b = count / p} elements; block
 * {@code j} of send goes to rank {@code j}, arriving as block {@code rank} of its recv. Cost:
 * {@code p - 1} steps; each rank sends and receives {@code (p - 1) b} elements.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_alltoall_intra_pairwise}; R. Thakur, R. Rabenseifner,
 * W. Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 19(1), 2005.
 *
 * <pre>
 * p = 4    rank 0       rank 1       rank 2       rank 3
 * local    0:0          1:1          2:2          3:3
 * step 1   ->1, &lt;-3     ->2, &lt;-0     ->3, &lt;-1     ->0, &lt;-2
 * step 2   ->2, &lt;-2     ->3, &lt;-3     ->0, &lt;-0     ->1, &lt;-1
 * step 3   ->3, &lt;-1     ->0, &lt;-2     ->1, &lt;-3     ->2, &lt;-0
 * </pre>
 */
public final class PairwiseAlltoall extends ScheduledAlltoall {
    public PairwiseAlltoall() {
        super("pairwise", "pairwise exchange: p-1 sendrecv steps with (rank+s) and (rank-s) mod p", 10,
                (p, blockBytes) -> AlltoallBuilders.pairwise(p, blockBytes, null));
    }
}
