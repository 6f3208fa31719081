package io.mpirunj.runtime.spi;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;

/**
 * One algorithm for one collective operation, found through a {@link CollectiveProvider}. Each
 * operation has its own sub-interface below, and an algorithm object serves the one {@link #op()} it
 * returns (a class may implement two operations whose logic is the same, e.g. scan and exscan, as long
 * as each instance says which it is), so whoever calls an algorithm picks the method by {@link #op()}, not
 * by the interfaces the object implements. Implementations are stateless and thread-safe.
 *
 * <h2>Blocking and non-blocking: one method</h2>
 * Each operation is a single method whose last argument is {@code boolean blocking}; {@code Comm}'s two
 * entry points ({@code bcast} and {@code ibcast}, {@code allreduce} and {@code iallreduce}, ...) both call
 * it, so an algorithm writes its logic once (as libNBC's schedules serve both forms in Open MPI).
 * <ul>
 *   <li>{@code blocking == true}: returns when this rank's part is done; the return value is ignored
 *       (return null).</li>
 *   <li>{@code blocking == false}: starts this rank's part and returns the {@link Request} that completes
 *       with it. The channel then has tags of its own for that one call, so it never meets a blocking
 *       collective or another non-blocking one.</li>
 * </ul>
 * A schedule-based algorithm hands the flag to its runner (every built-in one does: the collectives
 * module's {@code ScheduleRequest.runOrStart}); an algorithm written with blocking point-to-point calls
 * wraps its body in {@link BackgroundCollective#runOrStart}, which runs it in place or, non-blocking, on a
 * background thread:
 * <pre>{@code
 * public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
 *     return BackgroundCollective.runOrStart(blocking, () -> {
 *         ... ch.send / ch.recv ...
 *     });
 * }
 * }</pre>
 */
public interface CollectiveAlgorithm {
    /**
     * The operation this algorithm serves: by default the one whose interface it implements
     * ({@link CollectiveOp#algorithmType}). A class that implements two says which each instance serves.
     *
     * @throws IllegalArgumentException when the class implements no operation's interface, or two, and does not
     *     say
     */
    default CollectiveOp op() {
        return CollectiveOp.servedBy(this);
    }

    /** Kebab-case name, unique per operation, used by {@code --coll op=name}. */
    String name();

    /** One line for {@code --list-algorithms}. */
    String description();

    /** The default choice for an operation is its registered algorithm of highest priority. */
    default int priority() {
        return 0;
    }

    /** What it needs or does (see {@link AlgorithmTrait}); the catalogue's entry says. Default: none. */
    default java.util.Set<AlgorithmTrait> traits() {
        return java.util.Set.of();
    }

    /**
     * This algorithm with segments of {@code segmentBytes} (from a rules file), for
     * {@link AlgorithmTrait#SEGMENTED} ones; others ignore it and return themselves.
     */
    default CollectiveAlgorithm withSegmentBytes(long segmentBytes) {
        return this;
    }

    /**
     * A family of algorithms forced as {@code name:argument} ({@code --coll bcast=file:FILE.json}):
     * the registry hands the argument to the entry registered under {@code name}, which returns the
     * algorithm to run or throws an {@link IllegalArgumentException} with a one-line reason.
     */
    interface Parameterized extends CollectiveAlgorithm {
        CollectiveAlgorithm withArgument(String argument);
    }

    interface Barrier extends CollectiveAlgorithm {
        Request barrier(CollChannel ch, boolean blocking);
    }

    interface Bcast extends CollectiveAlgorithm {
        Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking);
    }

    /** Root to the ranks in {@code group} (which may include the root); only they call it. */
    interface Multicast extends CollectiveAlgorithm {
        Request multicast(CollChannel ch, Buffer buf, int root, int[] group, boolean blocking);
    }

    interface Alltoall extends CollectiveAlgorithm {
        Request alltoall(CollChannel ch, Buffer send, Buffer recv, boolean blocking);
    }

    interface Alltoallv extends CollectiveAlgorithm {
        Request alltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
                int[] recvCounts, int[] recvDispls, boolean blocking);
    }

    interface Gather extends CollectiveAlgorithm {
        Request gather(CollChannel ch, Buffer send, Buffer recv, int root, boolean blocking);
    }

    interface Gatherv extends CollectiveAlgorithm {
        Request gatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root,
                boolean blocking);
    }

    interface Scatter extends CollectiveAlgorithm {
        Request scatter(CollChannel ch, Buffer send, Buffer recv, int root, boolean blocking);
    }

    interface Scatterv extends CollectiveAlgorithm {
        Request scatterv(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root,
                boolean blocking);
    }

    interface Allgather extends CollectiveAlgorithm {
        Request allgather(CollChannel ch, Buffer send, Buffer recv, boolean blocking);
    }

    interface Allgatherv extends CollectiveAlgorithm {
        Request allgatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, boolean blocking);
    }

    interface Reduce extends CollectiveAlgorithm {
        Request reduce(CollChannel ch, Buffer send, Buffer recv, Op op, int root, boolean blocking);
    }

    interface Allreduce extends CollectiveAlgorithm {
        Request allreduce(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking);
    }

    /** Block i of the element-wise reduction (recvCounts[i] elements, blocks end to end) lands on rank i. */
    interface ReduceScatter extends CollectiveAlgorithm {
        Request reduceScatter(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, Op op, boolean blocking);
    }

    /** As {@link ReduceScatter} with every block {@code recv.count()} elements. */
    interface ReduceScatterBlock extends CollectiveAlgorithm {
        Request reduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking);
    }

    /** Inclusive prefix reduction: rank r gets x0 op ... op x(r). */
    interface Scan extends CollectiveAlgorithm {
        Request scan(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking);
    }

    /** Exclusive prefix reduction: rank r &gt; 0 gets x0 op ... op x(r-1); rank 0's recv is not written. */
    interface Exscan extends CollectiveAlgorithm {
        Request exscan(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking);
    }
}
