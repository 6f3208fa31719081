package io.mpirunj.collectives.baseline;

import io.mpirunj.Op;
import io.mpirunj.collectives.builders.ReductionBuilders;

/**
 * Recursive-doubling all-reduce. Let {@code q} be the largest power of two &le; p and
 * {@code e = p - q}. First the {@code 2e} lowest ranks fold pairwise: even rank {@code 2i} sends its
 * buffer to {@code 2i + 1}, which combines it and stands for both. The {@code q} remaining ranks
 * (new rank {@code i} for odd {@code 2i + 1 < 2e}, {@code rank - e} above) then exchange and combine
 * whole buffers with the partner at distance 1, 2, 4, ... in new-rank space. Finally each odd folded
 * rank sends the result back to its even partner.
 *
 * <p>Contract: commutative and associative operators (every {@link Op}); both partners combine the
 * same two operands, so every rank ends with bit-identical results. Cost: {@code log2 q} exchange
 * steps, plus 2 more when p is not a power of two; each step moves the whole buffer ({@code n}
 * elements) each way. Latency-optimal; for large buffers a reduce-scatter + all-gather moves less.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_allreduce_intra_recursivedoubling}; Thakur,
 * Rabenseifner, Gropp, IJHPCA 19(1), 2005.
 *
 * <pre>
 * p = 4 (q = 4, e = 0)   rank 0     rank 1     rank 2     rank 3
 * step 1 (distance 1)    &lt;-> 1      &lt;-> 0      &lt;-> 3      &lt;-> 2
 * step 2 (distance 2)    &lt;-> 2      &lt;-> 3      &lt;-> 0      &lt;-> 1
 *
 * p = 5 (q = 4, e = 1)   rank 0     rank 1     rank 2     rank 3     rank 4
 * fold                   send -> 1  recv &lt;- 0  .          .          .
 * step 1                 .          &lt;-> 2      &lt;-> 1      &lt;-> 4      &lt;-> 3
 * step 2                 .          &lt;-> 3      &lt;-> 4      &lt;-> 1      &lt;-> 2
 * unfold                 recv &lt;- 1  send -> 0  .          .          .
 * </pre>
 */
public final class RecursiveDoublingAllreduce extends ScheduledAllreduce {
    public RecursiveDoublingAllreduce() {
        super("recursive-doubling",
                "recursive doubling: log2 p exchanges of the whole buffer (non-power-of-two p folded)", 10,
                (p, count, eb, op) -> ReductionBuilders.recursiveDoublingAllreduce(p, count * eb, op));
    }
}
