package io.mpirunj.runtime.comm;

import io.mpirunj.runtime.spi.CallShape;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * One rank's {@link AutoTrial}s, a {@link Table} per communicator context. Kept by the rank, not by a communicator
 * object, so the views of a communicator ({@code Comm.withCollectives}, which carry its traffic) share its trials:
 * a program that makes a view per call, or on one rank and not another, still has every rank at the same call of
 * the same trial.
 */
public final class AutoTrials {

    /**
     * One context's trials, per operation and size slot ({@link CallShape#sizeSlot}): an auto call costs an array
     * read. A slot is null until the first call of its size class, then empty where the model left nothing to try.
     * Slots are written under the table's lock and read racily (an Optional is immutable): only the blocking calls,
     * made one at a time per communicator, fill them; a non-blocking call on another thread reads them.
     */
    static final class Table {
        @SuppressWarnings("unchecked")
        private final Optional<AutoTrial>[][] slots = new Optional[CollectiveOp.values().length][];

        /** The trial of {@code op} at {@code slot}: null before its first call, else made or empty. */
        Optional<AutoTrial> find(CollectiveOp op, int slot) {
            Optional<AutoTrial>[] bySize = slots[op.ordinal()];
            return bySize == null ? null : bySize[slot];
        }

        /** The trial of {@code op} at {@code slot}, made by {@code maker} (null: nothing to try) on the first call. */
        synchronized AutoTrial make(CollectiveOp op, int slot, Supplier<AutoTrial> maker) {
            Optional<AutoTrial> known = find(op, slot);
            if (known == null) {
                if (slots[op.ordinal()] == null) {
                    @SuppressWarnings("unchecked")
                    Optional<AutoTrial>[] bySize = new Optional[CallShape.SIZE_SLOTS];
                    slots[op.ordinal()] = bySize;
                }
                known = Optional.ofNullable(maker.get());
                slots[op.ordinal()][slot] = known;
            }
            return known.orElse(null);
        }
    }

    private final ConcurrentMap<Integer, Table> byContext = new ConcurrentHashMap<>();

    /** The trials of communicator context {@code context}. */
    Table of(int context) {
        return byContext.computeIfAbsent(context, c -> new Table());
    }
}
