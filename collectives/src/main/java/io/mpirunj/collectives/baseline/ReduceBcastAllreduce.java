package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;

/**
 * All-reduce as a reduce to rank 0 followed by a broadcast from rank 0, each done by whatever
 * algorithm the registry has chosen for it (so forcing {@code reduce=...} or {@code bcast=...}
 * changes this one too).
 *
 * <p>Contract: whatever the chosen reduce accepts (the baseline's needs commutative operators).
 * Cost: the reduce's plus the broadcast's; with the binomial ones, {@code 2 ceil(log2 p)} steps of
 * the whole buffer. The simplest correct composition, and the reference the others are checked
 * against.
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
public final class ReduceBcastAllreduce implements CollectiveAlgorithm.Allreduce {
    @Override
    public String name() {
        return "reduce-bcast";
    }

    @Override
    public String description() {
        return "the chosen reduce to rank 0, then the chosen bcast from rank 0";
    }

    @Override
    public void allreduce(CollChannel ch, Buffer send, Buffer recv, Op op) {
        ch.registry().select(CollectiveOp.REDUCE, CollectiveAlgorithm.Reduce.class).reduce(ch, send, recv, op, 0);
        ch.registry().select(CollectiveOp.BCAST, CollectiveAlgorithm.Bcast.class).bcast(ch, recv, 0);
    }
}
