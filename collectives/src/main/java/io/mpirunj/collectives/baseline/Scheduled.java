package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.function.Supplier;

/**
 * How a baseline algorithm runs: its builder's schedule, from a JVM-wide cache (ranks as threads
 * share it), executed over the whole communicator by the generic {@link io.mpirunj.collectives.runner.ScheduleRunner}.
 */
final class Scheduled {

    private static final ScheduleCache CACHE = new ScheduleCache();
    private static volatile int[] identity = new int[0];

    private Scheduled() {
    }

    /** The JVM-wide cache the baselines' schedules live in (tests look at what ran). */
    static ScheduleCache cache() {
        return CACHE;
    }

    /**
     * Runs (blocking: returns null) or starts the schedule {@code builder} makes for (collective,
     * algorithm, p, root, bytes, variant) over the whole communicator; {@code variant} names whatever
     * else the schedule depends on (e.g. the reduction operator).
     */
    static Request go(boolean blocking, CollChannel ch, Collective collective, String algorithm, int root, long bytes,
            String variant, ScheduleBuffers buffers, int tag, Supplier<Schedule> builder) {
        int p = ch.size();
        CompiledSchedule compiled = CACHE.get(new ScheduleCache.Key(collective, algorithm, p, root, bytes, variant),
                builder);
        return ScheduleRequest.runOrStart(blocking, compiled, ch, buffers, participants(p), ch.rank(), tag);
    }

    /**
     * The compiled schedule of a one-to-many {@code algorithm} over {@code participants} (rooted at
     * index 0), one cached schedule per (algorithm, participant count, bytes) whatever the root and group.
     */
    static CompiledSchedule rooted(Collective collective, String algorithm, int[] participants, long bytes,
            Supplier<Schedule> builder) {
        return CACHE.get(new ScheduleCache.Key(collective, algorithm, participants.length, 0, bytes, ""), builder);
    }

    /** One element count at displacement 0: a whole buffer as block 0 of a "v" schedule's layout. */
    static int[][] single(Buffer buf) {
        return new int[][] {{buf.count()}, {0}};
    }

    /** 0..p-1, shared while p stays the same. */
    private static int[] participants(int p) {
        int[] ids = identity;
        if (ids.length != p) {
            ids = new int[p];
            for (int i = 0; i < p; i++) {
                ids[i] = i;
            }
            identity = ids;
        }
        return ids;
    }
}
