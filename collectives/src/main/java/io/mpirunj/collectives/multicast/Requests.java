package io.mpirunj.collectives.multicast;

import io.mpirunj.fabric.model.CostModel;

/**
 * Model checks and rank rotation shared by the builders (their argument checks are
 * {@link io.mpirunj.collectives.schedule.Schedule#checkRooted}).
 */
final class Requests {

    private Requests() {
    }

    /** Model-driven algorithms need one t_hold and one t_end per message size. */
    static CostModel uniform(CostModel model, String algorithm) {
        if (model == null) {
            throw new IllegalArgumentException(algorithm + " needs a cost model (got null)");
        }
        if (!model.uniform()) {
            throw new IllegalArgumentException(algorithm + " needs a uniform cost model (got " + model
                    + "); per-pair models are for the heterogeneous (TTCC/ECEF) algorithms");
        }
        return model;
    }

    /** Schedule rank of virtual rank {@code v} when virtual 0 is the root. */
    static int rotate(int v, int root, int ranks) {
        int r = v + root;
        return r >= ranks ? r - ranks : r;
    }
}
