package io.mpirunj.runtime.comm;

import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * One rank's {@link AutoTrial}s, per communicator context, operation and size class. Kept by the rank, not by a
 * communicator object, so the views of a communicator ({@code Comm.withCollectives}, which carry its traffic) share
 * its trials: a program that makes a view per call, or on one rank and not another, still has every rank at the
 * same call of the same trial. Concurrent: a non-blocking call may look a trial up on another thread.
 */
public final class AutoTrials {

    private record Key(int context, CollectiveOp op, long sizeClass) {
    }

    /** Empty where the model left nothing to try. */
    private final ConcurrentMap<Key, Optional<AutoTrial>> trials = new ConcurrentHashMap<>();

    /** The trial made for these, or null (none made yet, or nothing to try). */
    AutoTrial find(int context, CollectiveOp op, long sizeClass) {
        Optional<AutoTrial> t = trials.get(new Key(context, op, sizeClass));
        return t == null ? null : t.orElse(null);
    }

    /** True when a trial was made for these, or found nothing to try. */
    boolean decided(int context, CollectiveOp op, long sizeClass) {
        return trials.containsKey(new Key(context, op, sizeClass));
    }

    /** The trial for these, made by {@code maker} (null: nothing to try) on the first call. */
    AutoTrial make(int context, CollectiveOp op, long sizeClass, Supplier<AutoTrial> maker) {
        return trials.computeIfAbsent(new Key(context, op, sizeClass), k -> Optional.ofNullable(maker.get()))
                .orElse(null);
    }
}
