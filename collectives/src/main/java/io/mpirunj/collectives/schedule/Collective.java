package io.mpirunj.collectives.schedule;

import io.mpirunj.runtime.spi.LowerCaseNames;

/**
 * The collective a schedule implements; it decides who holds what at the start and what each rank
 * must hold at the end (the contract the {@link Verifier} checks).
 *
 * <ul>
 *   <li>One-to-many ({@link #rooted()}): the root starts with the buffer, every other participant
 *       must receive every unit exactly once.</li>
 *   <li>All-to-all ({@link #pairs()}): rank r starts with blocks (r, d) and must receive (o, r).</li>
 *   <li>The others (gather, scatter, reduce, ...) are written with {@link Block.Range} blocks and local
 *       operations: every rank's send buffer is valid from the start; the verifier checks matching,
 *       that nothing reads bytes not yet written, and progress, but not the values (the runner's tests
 *       check those).</li>
 * </ul>
 */
public enum Collective {
    /** All ranks of the communicator receive the root's buffer. */
    BCAST,
    /** The ranks of a group (schedule ranks index the group) receive the root's buffer. */
    MULTICAST,
    /** Every rank r holds blocks (r, d) for every d and must receive (o, r) from every o != r. */
    ALLTOALL,
    BARRIER,
    GATHER,
    SCATTER,
    ALLGATHER,
    REDUCE,
    ALLREDUCE,
    REDUCE_SCATTER,
    SCAN,
    EXSCAN;

    /** Lower-case name used in exports: {@code bcast}, {@code multicast}, {@code alltoall}, {@code reduce_scatter}. */
    public String label() {
        return LowerCaseNames.of(this);
    }

    /** Parses {@link #label()}; the error lists the valid names. */
    public static Collective fromLabel(String label) {
        return LowerCaseNames.parse(values(), label, "collective");
    }

    /** True for the one-to-many collectives, where the root starts with everything. */
    public boolean rooted() {
        return this == BCAST || this == MULTICAST;
    }

    /** True for the all-to-all, whose blocks are (origin, destination) {@link Block.Pair}s. */
    public boolean pairs() {
        return this == ALLTOALL;
    }

    /** True when the schedule has a root (its index in {@code 0..ranks-1}); otherwise root is -1. */
    public boolean hasRoot() {
        return this == BCAST || this == MULTICAST || this == GATHER || this == SCATTER || this == REDUCE;
    }
}
