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
import io.mpirunj.runtime.spi.CollectiveOp;

/**
 * Scan (inclusive prefix reduction) and exscan (exclusive: rank 0's result is left alone): one
 * schedule builder serves both, so one class implements both operations; each instance is catalogued
 * under the one operation {@link #op()} says. Two schedules:
 *
 * <ul>
 *   <li><b>linear</b> ({@link ReductionBuilders#linearScan}): rank r receives the prefix of ranks
 *       0..r-1 from r - 1 (exscan: keeps it as its result), combines its own buffer on the right and
 *       passes the result on to r + 1, so the operands are combined in rank order (as MPI defines
 *       it). Any operator; p - 1 dependent steps of the whole buffer, so the latency grows with p.
 *       Open MPI {@code ompi_coll_base_scan_intra_linear}, {@code ompi_coll_base_exscan_intra_linear}.
 *   <li><b>recursive doubling</b> ({@link ReductionBuilders#recursiveDoublingScan}): every rank keeps
 *       the reduction of its window of ranks; in step k it swaps windows with rank
 *       {@code r xor 2^k} (when it exists), merges the partner's into its window, and into its result
 *       when the partner is the lower one. Commutative and associative operators (every
 *       {@link Op}); ceil(log2 p) steps of the whole buffer in each direction. MPICH
 *       {@code MPIR_Scan_intra_recursive_doubling}; Open MPI
 *       {@code ompi_coll_base_scan_intra_recursivedoubling}, {@code ompi_coll_base_exscan_intra_recursivedoubling}.
 * </ul>
 *
 * <pre>
 * linear, p = 4   rank 0      rank 1                rank 2                rank 3
 * step 1          send -> 1   recv &lt;- 0
 * step 2                      send -> 2             recv &lt;- 1
 * step 3                                            send -> 3             recv &lt;- 2
 *
 * recursive doubling, p = 4   rank 0     rank 1     rank 2     rank 3
 * step 1 (d = 1)              &lt;-> 1      &lt;-> 0      &lt;-> 3      &lt;-> 2
 * step 2 (d = 2)              &lt;-> 2      &lt;-> 3      &lt;-> 0      &lt;-> 1
 * </pre>
 */
public final class PrefixReduction implements CollectiveAlgorithm.Scan, CollectiveAlgorithm.Exscan, SimulatedBaseline {
    /** The operation this instance is catalogued under (scan or exscan); both methods work either way. */
    private final CollectiveOp catalogued;
    private final boolean linear;

    private PrefixReduction(CollectiveOp catalogued, boolean linear) {
        if (catalogued != CollectiveOp.SCAN && catalogued != CollectiveOp.EXSCAN) {
            throw new IllegalArgumentException("a prefix reduction is a scan or an exscan (got " + catalogued + ")");
        }
        this.catalogued = catalogued;
        this.linear = linear;
    }

    /** The linear (rank-order chain) {@code op}, scan or exscan. */
    public static PrefixReduction linear(CollectiveOp op) {
        return new PrefixReduction(op, true);
    }

    /** The recursive-doubling {@code op}, scan or exscan. */
    public static PrefixReduction recursiveDoubling(CollectiveOp op) {
        return new PrefixReduction(op, false);
    }

    @Override
    public CollectiveOp op() {
        return catalogued;
    }

    @Override
    public String name() {
        return linear ? "linear" : "recursive-doubling";
    }

    @Override
    public String description() {
        return linear ? "chain: rank r waits for the prefix of r-1 (rank order)"
                : "recursive doubling: ceil(log2 p) exchanges of partial prefixes";
    }

    @Override
    public int priority() {
        return linear ? 5 : 10;
    }

    @Override
    public Request scan(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking) {
        return go(false, blocking, ch, send, recv, op);
    }

    @Override
    public Request exscan(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking) {
        return go(true, blocking, ch, send, recv, op);
    }

    /** Runs (blocking: returns null) or starts this rank's part of a scan or ({@code exclusive}) an exscan. */
    private Request go(boolean exclusive, boolean blocking, CollChannel ch, Buffer send, Buffer recv, Op op) {
        int p = ch.size();
        long bytes = send.byteLength();
        return Scheduled.go(blocking, ch, exclusive ? Collective.EXSCAN : Collective.SCAN, name(), -1, bytes,
                op.name(), ScheduleBuffers.of(send, recv), exclusive ? CollTags.EXSCAN : CollTags.SCAN,
                () -> build(p, bytes, op, exclusive));
    }

    /** The catalogued operation's schedule. */
    @Override
    public Schedule schedule(int ranks, int root, long bytes) {
        return build(ranks, bytes, Op.SUM, catalogued == CollectiveOp.EXSCAN);
    }

    private Schedule build(int p, long bytes, Op op, boolean exclusive) {
        return linear ? ReductionBuilders.linearScan(p, bytes, op, exclusive)
                : ReductionBuilders.recursiveDoublingScan(p, bytes, op, exclusive);
    }
}
