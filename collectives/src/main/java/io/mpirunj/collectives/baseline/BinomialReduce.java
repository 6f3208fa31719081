package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Binomial-tree reduce. With ranks renumbered relative to the root ({@code v = (rank - root) mod p}),
 * rank {@code v} receives the partial result of each child {@code v + m} ({@code m = 1, 2, 4, ...},
 * {@code m < lowbit(v)}) in turn, folds it into its accumulator, and then sends the accumulator to
 * its parent {@code v - lowbit(v)}. The root accumulates straight into recv.
 *
 * <p>Contract: commutative and associative operators only (every {@link Op} is), since partial
 * results are combined in tree order rather than rank order; for floating point the result may
 * therefore differ in the last bits from a rank-ordered sum. recv is written on the root only.
 * Cost: {@code ceil(log2 p)} steps; each message is the whole buffer ({@code n} elements); inner
 * ranks combine up to {@code ceil(log2 p)} times and hold one copy of send and one temporary.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_reduce_intra_binomial}; MPICH
 * {@code MPIR_Reduce_intra_binomial}.
 *
 * <pre>
 * p = 4, root 0   rank 0                  rank 1     rank 2                  rank 3
 * step 1          recv &lt;- 1, acc op= x1   send -> 0  recv &lt;- 3, acc op= x3   send -> 2
 * step 2          recv &lt;- 2, acc op= x23  .          send -> 0               .
 * </pre>
 */
public final class BinomialReduce implements CollectiveAlgorithm.Reduce, SimulatedBaseline {
    @Override
    public String name() {
        return "binomial";
    }

    @Override
    public String description() {
        return "binomial tree: partial results flow up log2 p levels (commutative ops)";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public Request reduce(CollChannel ch, Buffer send, Buffer recv, Op op, int root, boolean blocking) {
        int p = ch.size();
        long bytes = send.byteLength();
        // Non-roots may pass any receive buffer: the schedule writes only the root's.
        return Scheduled.go(blocking, ch, Collective.REDUCE, name(), root, bytes, op.name(),
                ScheduleBuffers.of(send, recv), CollTags.REDUCE, () -> ReductionBuilders.binomialReduce(p, root,
                bytes, op));
    }

    @Override
    public Schedule schedule(int ranks, int root, long bytes) {
        return ReductionBuilders.binomialReduce(ranks, root, bytes, Op.SUM);
    }
}
