package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Pairwise-exchange all-to-all with per-pair counts: the schedule of {@link PairwiseAlltoall}
 * (own block copied locally, then step {@code s = 1 .. p-1} sends to {@code (rank + s) mod p} and
 * receives from {@code (rank - s) mod p}), with block {@code j} of send being
 * {@code sendCounts[j]} elements at {@code sendDispls[j]} and block {@code i} of recv
 * {@code recvCounts[i]} elements at {@code recvDispls[i]}.
 *
 * <p>Contract: {@code sendCounts[j]} on rank {@code i} equals {@code recvCounts[i]} on rank
 * {@code j}; zero counts are fine (an empty message is still exchanged, keeping the steps in
 * lockstep). Cost: {@code p - 1} steps; a rank sends {@code sum(sendCounts) - sendCounts[rank]}
 * elements.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_alltoallv_intra_pairwise}.
 *
 * <pre>
 * p = 4    rank 0       rank 1       rank 2       rank 3
 * local    0:0          1:1          2:2          3:3
 * step 1   ->1, &lt;-3     ->2, &lt;-0     ->3, &lt;-1     ->0, &lt;-2
 * step 2   ->2, &lt;-2     ->3, &lt;-3     ->0, &lt;-0     ->1, &lt;-1
 * step 3   ->3, &lt;-1     ->0, &lt;-2     ->1, &lt;-3     ->2, &lt;-0
 * </pre>
 */
public final class PairwiseAlltoallv extends ScheduledAlltoallv {
    @Override
    public String name() {
        return "pairwise";
    }

    @Override
    public String description() {
        return "pairwise exchange with per-pair counts: p-1 sendrecv steps";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    Schedule build(int p) {
        return AlltoallBuilders.pairwise(p, 0, null);
    }
}
