package io.mpirunj.collectives.baseline;

import io.mpirunj.Op;
import io.mpirunj.collectives.builders.ReductionBuilders;

/**
 * All-reduce as a binomial reduce to rank 0 followed by a binomial broadcast from rank 0, run as one
 * schedule ({@link ReductionBuilders#reduceBcastAllreduce}), so the simulator and verifier see both
 * halves. (Before the schedule IR it composed whichever reduce and bcast the registry had chosen;
 * the schedule fixes both to binomial.)
 *
 * <p>Contract: commutative and associative operators (every {@link Op}). Cost:
 * {@code 2 ceil(log2 p)} steps of the whole buffer. The simplest correct composition, and the
 * reference the others are checked against.
 *
 * <p>Reference: SimGrid {@code src/smpi/colls/allreduce/allreduce-redbcast.cpp}; Open MPI
 * {@code ompi_coll_base_allreduce_intra_nonoverlapping}.
 *
 * <pre>
 * p = 4, binomial reduce and bcast   rank 0     rank 1     rank 2     rank 3
 * reduce step 1                      recv &lt;- 1  send -> 0  recv &lt;- 3  send -> 2
 * reduce step 2                      recv &lt;- 2  .          send -> 0  .
 * bcast step 1                       send -> 2  .          recv &lt;- 0  .
 * bcast step 2                       send -> 1  recv &lt;- 0  send -> 3  recv &lt;- 2
 * </pre>
 */
public final class ReduceBcastAllreduce extends ScheduledAllreduce {
    public ReduceBcastAllreduce() {
        super("reduce-bcast", "binomial reduce to rank 0, then binomial bcast from rank 0 (as one schedule)", 0,
                (p, count, eb, op) -> ReductionBuilders.reduceBcastAllreduce(p, count * eb, op));
    }
}
