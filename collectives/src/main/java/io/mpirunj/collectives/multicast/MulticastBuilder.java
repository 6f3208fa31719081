package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Builds a multicast schedule: a pure function of its arguments (no clocks, sockets or
 * randomness), so the runner, simulator and verifier all see the same schedule.
 *
 * <p>Schedule ranks are indices into the participant group; the runner maps them onto
 * communicator ranks. A bcast is a multicast over all ranks.
 */
@FunctionalInterface
public interface MulticastBuilder {

    /**
     * @param ranks        number of participants, >= 1
     * @param root         index of the root among them, 0..ranks-1
     * @param messageBytes buffer size, >= 0
     * @param model        the cost model; model-driven algorithms need a uniform one, the
     *                     others ignore it (it may then be null)
     */
    Schedule build(int ranks, int root, long messageBytes, CostModel model);
}
