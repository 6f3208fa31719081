package io.mpirunj.collectives.baseline;

import io.mpirunj.Op;
import io.mpirunj.collectives.builders.ReductionBuilders;

/**
 * All-reduce as a flat reduce to rank 0 followed by a flat bcast from rank 0, run as one schedule
 * ({@link ReductionBuilders#linearReduceBcastAllreduce}): every rank sends to rank 0, rank 0 combines
 * in rank order and sends the result to everyone.
 *
 * <p>Contract: commutative and associative operators (every {@link Op}); every rank ends with rank 0's
 * result, bit-identical. Cost: 2 steps, 2(p - 1) messages of the whole buffer, all through rank 0 (which
 * also does all p - 1 combines). The same bytes and messages as reduce-bcast with no relaying rank:
 * for ranks that share few cores, where a binomial relay must be scheduled before it can forward.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_reduce_intra_basic_linear} and its linear bcast, composed
 * as {@code ompi_coll_base_allreduce_intra_nonoverlapping} composes a reduce and a bcast.
 *
 * <pre>
 * p = 4           rank 0                 rank 1     rank 2     rank 3
 * step 1          recv &lt;- 1, 2, 3        send -> 0  send -> 0  send -> 0
 * step 2          send -> 1, 2, 3        recv &lt;- 0  recv &lt;- 0  recv &lt;- 0
 * </pre>
 */
public final class LinearReduceBcastAllreduce extends ScheduledAllreduce {
    public LinearReduceBcastAllreduce() {
        super("linear-reduce-bcast", "flat reduce to rank 0, then flat bcast from rank 0 (no relaying rank)", 0,
                (p, count, eb, op) -> ReductionBuilders.linearReduceBcastAllreduce(p, count * eb, op));
    }
}
