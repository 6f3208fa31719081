package io.mpirunj.collectives.runner;

import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A small bounded LRU of built schedules, so repeated collectives do not rebuild them. Keyed by
 * everything a builder's output depends on: collective, algorithm, participant count, root index,
 * buffer bytes and the model's canonical spec (message size matters: model-driven trees and
 * segment counts change with it).
 *
 * <p>Bounded twice: at most {@code maxEntries} schedules and, beyond the most recent one, at most
 * {@code maxInstructions} instructions in all (a 10,000-rank pipelined schedule can hold millions).
 *
 * <p>Thread-safe. Concurrent requests for one key build it once: the first caller builds (outside
 * the cache lock, so other keys are not held up) and the others wait for it. A build that throws is
 * not cached; every waiter sees the exception.
 */
public final class ScheduleCache {

    /** Default bound on cached schedules. */
    public static final int MAX_ENTRIES_DEFAULT = 64;
    /** Default bound on the instructions the cached schedules hold together. */
    public static final long MAX_INSTRUCTIONS_DEFAULT = 8_000_000L;

    /** What a schedule is built from. {@code model} is the model's canonical spec ({@code toString()}). */
    public record Key(Collective collective, String algorithm, int ranks, int root, long messageBytes, String model) {
        public Key {
            Objects.requireNonNull(collective, "collective");
            Objects.requireNonNull(algorithm, "algorithm");
            Objects.requireNonNull(model, "model");
        }
    }

    private final int maxEntries;
    private final long maxInstructions;
    /** Guarded by itself; access order, eldest first. */
    private final LinkedHashMap<Key, Slot> slots = new LinkedHashMap<>(16, 0.75f, true);
    private long instructions;
    private long hits;
    private long misses;

    public ScheduleCache(int maxEntries, long maxInstructions) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries=" + maxEntries + " (expected: >= 1)");
        }
        if (maxInstructions < 0) {
            throw new IllegalArgumentException("maxInstructions=" + maxInstructions + " (expected: >= 0)");
        }
        this.maxEntries = maxEntries;
        this.maxInstructions = maxInstructions;
    }

    public ScheduleCache() {
        this(MAX_ENTRIES_DEFAULT, MAX_INSTRUCTIONS_DEFAULT);
    }

    /** The schedule for {@code key}, built with {@code builder} if it is not cached. */
    public CompiledSchedule get(Key key, Supplier<Schedule> builder) {
        Slot slot;
        synchronized (slots) {
            slot = slots.get(key);
            if (slot == null) {
                slot = new Slot();
                slots.put(key, slot);
                misses++;
            } else {
                hits++;
            }
        }
        CompiledSchedule value = slot.value;
        if (value != null) {
            return value;
        }
        synchronized (slot) {
            if (slot.value == null) {
                try {
                    slot.value = verified(CompiledSchedule.of(Objects.requireNonNull(builder.get(),
                            "builder returned null")));
                } catch (RuntimeException | Error e) {
                    synchronized (slots) {
                        slots.remove(key, slot);
                    }
                    throw e;
                }
                admit(key, slot);
            }
            return slot.value;
        }
    }

    /**
     * Whether a schedule is verified when it is built for the cache: on unless the system property
     * {@value #VERIFY_PROPERTY} is {@code false} (once the builders in use are trusted).
     */
    public static final String VERIFY_PROPERTY = "mpirunj.verifySchedules";

    private static final boolean VERIFY = !"false".equalsIgnoreCase(System.getProperty(VERIFY_PROPERTY));

    /** Refuses a schedule the {@link Verifier} rejects, listing why; a builder bug never reaches the wire. */
    private static CompiledSchedule verified(CompiledSchedule compiled) {
        if (VERIFY) {
            List<String> errors = Verifier.verify(compiled.analysis());
            if (!errors.isEmpty()) {
                throw new IllegalStateException("invalid schedule " + compiled.schedule() + " (builder bug; -D"
                        + VERIFY_PROPERTY + "=false skips this check):\n  " + String.join("\n  ", errors));
            }
        }
        return compiled;
    }

    private void admit(Key key, Slot slot) {
        synchronized (slots) {
            if (slots.get(key) != slot) {
                return; // evicted (or cleared) while building: serve it uncached
            }
            slot.instructions = slot.value.schedule().instructionCount();
            instructions += slot.instructions;
            Iterator<Map.Entry<Key, Slot>> eldest = slots.entrySet().iterator();
            while (eldest.hasNext() && (slots.size() > maxEntries || instructions > maxInstructions)) {
                Map.Entry<Key, Slot> e = eldest.next();
                if (e.getValue() == slot) {
                    continue; // never evict what was just built
                }
                instructions -= e.getValue().instructions;
                eldest.remove();
            }
        }
    }

    /** Number of cached (or being built) schedules. */
    public int size() {
        synchronized (slots) {
            return slots.size();
        }
    }

    /** Lookups answered from the cache (including waits for a concurrent build). */
    public long hits() {
        synchronized (slots) {
            return hits;
        }
    }

    /** Lookups that built a schedule. */
    public long misses() {
        synchronized (slots) {
            return misses;
        }
    }

    /** The schedules cached now (built ones only), least recently used first: for reports and tests. */
    public List<Schedule> schedules() {
        synchronized (slots) {
            List<Schedule> out = new java.util.ArrayList<>(slots.size());
            for (Slot slot : slots.values()) {
                CompiledSchedule c = slot.value;
                if (c != null) {
                    out.add(c.schedule());
                }
            }
            return out;
        }
    }

    public void clear() {
        synchronized (slots) {
            slots.clear();
            instructions = 0;
        }
    }

    @Override
    public String toString() {
        synchronized (slots) {
            return "ScheduleCache[" + slots.size() + "/" + maxEntries + " schedules, " + instructions + "/"
                    + maxInstructions + " instructions, " + hits + " hits, " + misses + " misses]";
        }
    }

    private static final class Slot {
        volatile CompiledSchedule value;
        /** Guarded by the cache lock. */
        long instructions;
    }
}
