package io.mpirunj.collectives.multicast;

import io.mpirunj.fabric.model.CostModel;

/** Argument checks shared by the builders. */
final class Requests {

    private Requests() {
    }

    static void check(int ranks, int root, long messageBytes) {
        if (ranks < 1) {
            throw new IllegalArgumentException("ranks=" + ranks + " (expected: >= 1)");
        }
        if (root < 0 || root >= ranks) {
            throw new IllegalArgumentException("root=" + root + " (expected: 0.." + (ranks - 1) + ")");
        }
        if (messageBytes < 0) {
            throw new IllegalArgumentException("messageBytes=" + messageBytes + " (expected: >= 0)");
        }
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
