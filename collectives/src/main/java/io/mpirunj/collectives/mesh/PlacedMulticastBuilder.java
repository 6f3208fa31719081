package io.mpirunj.collectives.mesh;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Topology;

/**
 * Builds a multicast schedule that depends on where the group members sit: a pure function of
 * its arguments, like {@link io.mpirunj.collectives.multicast.MulticastBuilder}.
 */
@FunctionalInterface
public interface PlacedMulticastBuilder {

    /**
     * @param ranks        group size, >= 1
     * @param root         the root's index in the group
     * @param messageBytes buffer size, >= 0
     * @param model        cost model for model-driven algorithms (may be null for the others)
     * @param topology     the network the group lives on
     * @param nodeOf       nodeOf[rank]: each member's node, distinct
     */
    Schedule build(int ranks, int root, long messageBytes, CostModel model, Topology topology, int[] nodeOf);
}
