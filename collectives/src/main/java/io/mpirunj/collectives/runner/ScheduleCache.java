package io.mpirunj.collectives.runner;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A bounded cache of built schedules (Caffeine), so repeated collectives do not rebuild them. Keyed by
 * everything a builder's output depends on: collective, algorithm, participant count, root index,
 * buffer bytes and the model's canonical spec (message size matters: model-driven trees and
 * segment counts change with it).
 *
 * <p>Bounded twice, beyond the most recently built schedule (which stays cached whatever its size, so
 * ranks that ask for it a moment later do not build it again): at most {@code maxEntries - 1} other
 * schedules, holding at most {@code maxInstructions} instructions in all (a 10,000-rank pipelined
 * schedule can hold millions). Caffeine bounds one weight, so a schedule weighs its instruction count
 * but at least {@code maxInstructions / (maxEntries - 1)} (rounded up): the entry bound follows from
 * the weight bound. The newest schedule weighs nothing (Caffeine's way to pin an entry) until the next
 * one is built. Which schedule goes first is Caffeine's choice (W-TinyLFU: recency and frequency),
 * not strict LRU.
 *
 * <p>Thread-safe. Concurrent requests for one key build it once: the first caller builds and the
 * others wait for it; other keys are not held up. A build that throws is not cached: its caller gets
 * the exception and a caller that waited builds anew. Evictions run on the calling thread, so they
 * are done when a call returns.
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

    /** A key and the schedule built for it. */
    private record Built(Key key, CompiledSchedule compiled) {
    }

    private final int maxEntries;
    private final long maxInstructions;
    private final Cache<Key, CompiledSchedule> schedules;
    /** The most recently built schedule: pinned (weight 0) while it is the newest. */
    private final AtomicReference<Built> newest = new AtomicReference<>();
    /** Counted here rather than by Caffeine's stats, so that a hit costs a lookup and no allocation. */
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    public ScheduleCache(int maxEntries, long maxInstructions) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries=" + maxEntries + " (expected: >= 1)");
        }
        if (maxInstructions < 0) {
            throw new IllegalArgumentException("maxInstructions=" + maxInstructions + " (expected: >= 0)");
        }
        this.maxEntries = maxEntries;
        this.maxInstructions = maxInstructions;
        int others = maxEntries - 1;
        boolean onlyNewest = others == 0 || maxInstructions == 0;
        // a schedule holds at most Integer.MAX_VALUE instructions, so a larger bound never binds
        long maximumWeight = onlyNewest ? 1 : Math.min(maxInstructions, others * (long) Integer.MAX_VALUE);
        // heavier than the bound when only the newest may stay: Caffeine evicts such an entry at once
        long leastWeight = onlyNewest ? 2 : (maximumWeight + others - 1) / others;
        this.schedules = Caffeine.newBuilder()
                .maximumWeight(maximumWeight)
                .<Key, CompiledSchedule>weigher((key, compiled) -> {
                    Built pinned = newest.get();
                    return pinned != null && pinned.compiled() == compiled ? 0
                            : (int) Math.max(leastWeight, compiled.schedule().instructionCount());
                })
                .executor(Runnable::run)
                .build();
    }

    public ScheduleCache() {
        this(MAX_ENTRIES_DEFAULT, MAX_INSTRUCTIONS_DEFAULT);
    }

    /** The schedule for {@code key}, built with {@code builder} if it is not cached. */
    public CompiledSchedule get(Key key, Supplier<Schedule> builder) {
        CompiledSchedule cached = schedules.getIfPresent(key);
        if (cached != null) {
            hits.increment();
            return cached;
        }
        Build build = new Build(builder);
        CompiledSchedule compiled = schedules.get(key, build);
        if (!build.ran) {
            hits.increment(); // another caller built it meanwhile
            return compiled;
        }
        misses.increment();
        Built previous = build.replaced;
        if (previous != null) {
            // no longer the newest: weighed again (a no-op if it is gone), which may evict others
            schedules.asMap().computeIfPresent(previous.key(), (k, c) -> c);
        }
        return compiled;
    }

    /** Builds and verifies one schedule for the cache and pins it as the newest (a miss). */
    private final class Build implements Function<Key, CompiledSchedule> {
        private final Supplier<Schedule> builder;
        boolean ran;
        Built replaced;

        Build(Supplier<Schedule> builder) {
            this.builder = builder;
        }

        @Override
        public CompiledSchedule apply(Key key) {
            ran = true;
            CompiledSchedule compiled = verified(CompiledSchedule.of(Objects.requireNonNull(builder.get(),
                    "builder returned null")));
            replaced = newest.getAndSet(new Built(key, compiled));
            return compiled;
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

    /** Number of cached schedules. */
    public int size() {
        schedules.cleanUp();
        return (int) schedules.estimatedSize();
    }

    /** Lookups answered from the cache (including waits for a concurrent build). */
    public long hits() {
        return hits.sum();
    }

    /** Lookups that built a schedule. */
    public long misses() {
        return misses.sum();
    }

    /** The schedules cached now, the first to be evicted first: for reports and tests. */
    public List<Schedule> schedules() {
        schedules.cleanUp();
        List<Schedule> out = new ArrayList<>();
        for (CompiledSchedule c : eviction().coldest(Integer.MAX_VALUE).values()) {
            out.add(c.schedule());
        }
        return out;
    }

    public void clear() {
        newest.set(null);
        schedules.invalidateAll();
        schedules.cleanUp();
    }

    private Policy.Eviction<Key, CompiledSchedule> eviction() {
        return schedules.policy().eviction().orElseThrow();
    }

    @Override
    public String toString() {
        schedules.cleanUp();
        return "ScheduleCache[" + schedules.estimatedSize() + "/" + maxEntries + " schedules, "
                + eviction().weightedSize().orElse(0) + "/" + maxInstructions + " weighed instructions, " + hits()
                + " hits, " + misses() + " misses]";
    }
}
