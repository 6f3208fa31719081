package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Recursive-doubling exscan: every rank keeps the reduction of its window of ranks; in step k it swaps
 * windows with rank {@code r xor 2^k} (when it exists), merges the partner's into its window, and
 * into its result when the partner is the lower one. Runs as the
 * {@link ReductionBuilders#recursiveDoublingScan} schedule.
 *
 * <p>Contract: commutative and associative operators (every {@link Op}). Cost: ceil(log2 p) steps
 * of the whole buffer in each direction.
 *
 * <p>Reference: MPICH {@code MPIR_Scan_intra_recursive_doubling}; Open MPI
 * {@code ompi_coll_base_exscan_intra_recursivedoubling}.
 *
 * <pre>
 * p = 4              rank 0     rank 1     rank 2     rank 3
 * step 1 (d = 1)     &lt;-> 1      &lt;-> 0      &lt;-> 3      &lt;-> 2
 * step 2 (d = 2)     &lt;-> 2      &lt;-> 3      &lt;-> 0      &lt;-> 1
 * </pre>
 */
public final class RecursiveDoublingExscan extends PrefixReduction implements CollectiveAlgorithm.Exscan {
    public RecursiveDoublingExscan() {
        super(true, false);
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
