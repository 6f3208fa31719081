package io.mpirunj.runtime.spi;

import io.mpirunj.runtime.RuntimeConfig;
import java.util.List;

/**
 * Model-based selection ({@code --coll bcast=auto}): the candidate with the lowest predicted completion
 * under the job's model. Found with {@link java.util.ServiceLoader} (the collectives module provides the
 * simulator-backed one). Implementations are thread-safe and deterministic: every rank of a call must
 * get the same answer from the same inputs.
 */
public interface ModelSelector {

    /** The choice and what the model predicts for it (in the model's time unit). */
    record Prediction(String algorithm, double predicted, String unit) {
    }

    /**
     * @param candidates the algorithms registered for {@code op}
     * @param fallback   what this call runs without {@code auto} (a built-in threshold's algorithm, else the
     *                   default): a selector may prefer it when the model cannot tell it from the fastest
     * @param call       the call's shape: participants and agreed message size
     * @return the choice, or null when no candidate can be evaluated (the caller falls back to the default)
     */
    Prediction choose(CollectiveOp op, List<CollectiveAlgorithm> candidates, CollectiveAlgorithm fallback,
            CallShape call, RuntimeConfig config);

    /**
     * What {@code auto} tries live before it settles ({@code --coll-tune}): {@link #choose}'s answer first, then
     * the other candidates the model cannot rule out, in the order the selector ranks them. The same arguments as
     * {@link #choose}; every rank gets the same list. This default offers the choice alone (nothing to try).
     */
    default List<Prediction> shortlist(CollectiveOp op, List<CollectiveAlgorithm> candidates,
            CollectiveAlgorithm fallback, CallShape call, RuntimeConfig config) {
        Prediction p = choose(op, candidates, fallback, call, config);
        return p == null ? List.of() : List.of(p);
    }
}
