package io.mpirunj.collectives.baseline;

import io.mpirunj.Op;
import io.mpirunj.collectives.builders.ReductionBuilders;

/**
 * Rabenseifner's all-reduce: a recursive-halving reduce-scatter, then a recursive-doubling
 * allgather, run as the {@link ReductionBuilders#rabenseifnerAllreduce} schedule. Non-power-of-two p
 * folds the 2(p - q) lowest ranks pairwise first (q the largest power of two &le; p).
 *
 * <p>Contract: commutative and associative operators (every {@link Op}); every rank ends with
 * bit-identical results. With fewer elements than q it runs recursive doubling instead (the
 * schedule's note says so). Cost: 2 log2 q steps (+2 when p is not a power of two); each rank sends
 * about 2n(q-1)/q elements, against n log2 q for recursive doubling: the choice for large buffers.
 *
 * <p>Reference: R. Rabenseifner, "Optimization of collective reduction operations", ICCS 2004;
 * Thakur, Rabenseifner, Gropp, IJHPCA 19(1), 2005; Open MPI
 * {@code ompi_coll_base_allreduce_intra_redscat_allgather}.
 *
 * <pre>
 * p = 4, blocks b0..b3      rank 0        rank 1        rank 2        rank 3
 * step 1 (halving, d=2)     b2b3 -> 2     b2b3 -> 3     b0b1 -> 0     b0b1 -> 1
 * step 2 (halving, d=1)     b1 -> 1       b0 -> 0       b3 -> 3       b2 -> 2
 * step 3 (doubling, d=1)    b0 &lt;-> 1      b1 &lt;-> 0      b2 &lt;-> 3      b3 &lt;-> 2
 * step 4 (doubling, d=2)    b01 &lt;-> 2     b01 &lt;-> 3     b23 &lt;-> 0     b23 &lt;-> 1
 * </pre>
 */
public final class RabenseifnerAllreduce extends ScheduledAllreduce {
    public RabenseifnerAllreduce() {
        super("rabenseifner",
                "Rabenseifner: recursive-halving reduce-scatter + recursive-doubling allgather (large buffers)",
                5, ReductionBuilders::rabenseifnerAllreduce);
    }
}
