package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ScheduleCacheTest {

    private static final CostModel MODEL = ModelSpec.parse(ModelProvider.DEFAULT_SPEC);

    private static ScheduleCache.Key key(int ranks) {
        return new ScheduleCache.Key(Collective.BCAST, "binomial", ranks, 0, 64, MODEL.toString());
    }

    private static Supplier<Schedule> counting(int ranks, AtomicInteger builds) {
        return () -> {
            builds.incrementAndGet();
            return MulticastAlgorithms.bcast("binomial", ranks, 0, 64, MODEL);
        };
    }

    @Test
    void aRepeatedKeyIsBuiltOnce() {
        ScheduleCache cache = new ScheduleCache();
        AtomicInteger builds = new AtomicInteger();
        CompiledSchedule first = cache.get(key(8), counting(8, builds));
        assertSame(first, cache.get(key(8), counting(8, builds)));
        assertEquals(1, builds.get());
        assertEquals(1, cache.misses());
        assertEquals(1, cache.hits());
        assertNotSame(first, cache.get(key(9), counting(9, builds)));
    }

    /**
     * The entry bound. Which older schedule goes is Caffeine's choice (W-TinyLFU, not strict LRU), so
     * only the newest one is named here.
     */
    @Test
    void theEntryBoundKeepsTheNewest() {
        ScheduleCache cache = new ScheduleCache(2, Long.MAX_VALUE);
        AtomicInteger builds = new AtomicInteger();
        cache.get(key(2), counting(2, builds));
        cache.get(key(3), counting(3, builds));
        cache.get(key(2), counting(2, builds));
        CompiledSchedule newest = cache.get(key(4), counting(4, builds)); // evicts 2 or 3
        assertEquals(2, cache.size());
        assertEquals(3, builds.get());
        assertSame(newest, cache.get(key(4), counting(4, builds)));
        assertEquals(3, builds.get());
        assertEquals(3, cache.misses());
        assertEquals(2, cache.hits());
    }

    @Test
    void oneEntryIsTheNewest() {
        ScheduleCache cache = new ScheduleCache(1, Long.MAX_VALUE);
        AtomicInteger builds = new AtomicInteger();
        for (int ranks = 2; ranks < 6; ranks++) {
            CompiledSchedule built = cache.get(key(ranks), counting(ranks, builds));
            assertSame(built, cache.get(key(ranks), counting(ranks, builds)));
            assertEquals(List.of(built.schedule()), cache.schedules());
        }
        assertEquals(4, builds.get());
    }

    @Test
    void theInstructionBoundEvictsOlderSchedulesButKeepsTheNewest() {
        ScheduleCache cache = new ScheduleCache(100, 50); // binomial over k ranks: 2(k-1) instructions
        AtomicInteger builds = new AtomicInteger();
        cache.get(key(10), counting(10, builds)); // 18
        cache.get(key(11), counting(11, builds)); // 20
        cache.get(key(12), counting(12, builds)); // 22, beyond the newest 38: all kept
        assertEquals(3, cache.size());
        cache.get(key(13), counting(13, builds)); // 24, beyond the newest 60 > 50: one goes
        assertEquals(3, cache.size());
        assertOthersHoldAtMost(50, cache, 13);
        cache.get(key(100), counting(100, builds)); // 198 alone exceeds the bound but is kept
        assertOthersHoldAtMost(50, cache, 100);
        cache.get(key(100), counting(100, builds));
        assertEquals(5, builds.get());
        cache.get(key(5), counting(5, builds)); // now 100 is not the newest and goes
        assertEquals(6, builds.get());
        assertOthersHoldAtMost(50, cache, 5);
        assertTrue(cache.schedules().stream().allMatch(s -> s.ranks() != 100), cache.toString());
    }

    /** The newest schedule (over {@code newestRanks}) is cached, the others hold at most {@code max} instructions. */
    private static void assertOthersHoldAtMost(long max, ScheduleCache cache, int newestRanks) {
        List<Schedule> cached = cache.schedules();
        assertTrue(cached.stream().anyMatch(s -> s.ranks() == newestRanks), cached.toString());
        long others = cached.stream().filter(s -> s.ranks() != newestRanks).mapToLong(Schedule::instructionCount).sum();
        assertTrue(others <= max, others + " instructions beside the newest: " + cached);
    }

    @Test
    void concurrentRequestsForOneKeyBuildOnce() throws Exception {
        ScheduleCache cache = new ScheduleCache();
        AtomicInteger builds = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        // the first build holds on until every thread is at the cache: a cache that lets two build
        // would have them all inside the builder at once
        CountDownLatch allAsking = new CountDownLatch(8);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<CompiledSchedule>> got = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                got.add(pool.submit(() -> {
                    start.await();
                    allAsking.countDown();
                    return cache.get(key(1000), () -> {
                        builds.incrementAndGet();
                        try {
                            allAsking.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return MulticastAlgorithms.bcast("opt-tree", 1000, 0, 64, MODEL);
                    });
                }));
            }
            start.countDown();
            CompiledSchedule first = got.get(0).get();
            for (Future<CompiledSchedule> f : got) {
                assertSame(first, f.get());
            }
            assertEquals(1, builds.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedBuildIsNotCached() {
        ScheduleCache cache = new ScheduleCache();
        assertThrows(IllegalArgumentException.class, () -> cache.get(key(5), () -> {
            throw new IllegalArgumentException("no");
        }));
        assertEquals(0, cache.size());
        AtomicInteger builds = new AtomicInteger();
        cache.get(key(5), counting(5, builds));
        assertEquals(1, builds.get());
    }

    @Test
    void boundsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new ScheduleCache(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new ScheduleCache(1, -1));
    }
}
