package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear exscan: rank r receives the prefix of ranks 0..r-1 from r - 1, keeps it as its result, combines its own buffer on the right and passes that on to
 * r + 1, so the operands are combined in rank order (as MPI defines it). Runs as the
 * {@link ReductionBuilders#linearScan} schedule.
 *
 * <p>Contract: any operator. Cost: p - 1 dependent steps of the whole buffer: the latency grows
 * with p.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_exscan_intra_linear}.
 *
 * <pre>
 * p = 4    rank 0      rank 1                rank 2                rank 3
 * step 1   send -> 1   recv &lt;- 0
 * step 2               send -> 2             recv &lt;- 1
 * step 3                                     send -> 3             recv &lt;- 2
 * </pre>
 */
public final class LinearExscan extends PrefixReduction implements CollectiveAlgorithm.Exscan {
    public LinearExscan() {
        super(true, true);
    }

    @Override
    public void exscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
        run(ch, send, recv, op);
    }

    @Override
    public Request iexscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
        return start(ch, send, recv, op);
    }
}
