package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.schedule.Schedule;

/**
 * A baseline whose live calls run a schedule of their size alone: it gives the catalogue that same
 * schedule for the simulator, so what is simulated and what runs come from one builder call.
 */
public interface SimulatedBaseline {

    /**
     * The schedule for {@code ranks} ranks around {@code root} (ignored by unrooted operations) of
     * {@code bytes}: the per-rank block of an all-to-all, gather or scatter, the buffer of an allreduce
     * (reduced with {@code SUM}: the operator does not change the messages).
     */
    Schedule schedule(int ranks, int root, long bytes);
}
