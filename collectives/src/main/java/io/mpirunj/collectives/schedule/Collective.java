package io.mpirunj.collectives.schedule;

import java.util.Locale;

/** The collective a schedule implements; it decides who holds what at the start and the end. */
public enum Collective {
    /** All ranks of the communicator receive the root's buffer. */
    BCAST,
    /** The ranks of a group (schedule ranks index the group) receive the root's buffer. */
    MULTICAST,
    /** Every rank r holds blocks (r, d) for every d and must receive (o, r) from every o != r. */
    ALLTOALL;

    /** Lower-case name used in exports: {@code bcast}, {@code multicast}, {@code alltoall}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for the one-to-many collectives, where the root starts with everything. */
    public boolean rooted() {
        return this != ALLTOALL;
    }
}
