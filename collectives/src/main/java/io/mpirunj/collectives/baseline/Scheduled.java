package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.function.Supplier;

/**
 * How a baseline algorithm runs: its builder's schedule, from a JVM-wide cache (ranks as threads
 * share it), executed over the whole communicator by the generic {@link ScheduleRunner}.
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
     * Runs the schedule {@code builder} makes for (collective, algorithm, p, root, bytes, variant);
     * {@code variant} names whatever else the schedule depends on (e.g. the reduction operator).
     */
    static void run(CollChannel ch, Collective collective, String algorithm, int root, long bytes, String variant,
            ScheduleBuffers buffers, int tag, Supplier<Schedule> builder) {
        int p = ch.size();
        CompiledSchedule compiled = CACHE.get(new ScheduleCache.Key(collective, algorithm, p, root, bytes, variant),
                builder);
        ScheduleRunner.run(compiled, ch, buffers, participants(p), ch.rank(), tag);
    }

    /** As {@link #run}, but only starts: the request completes when this rank's program has. */
    static Request start(CollChannel ch, Collective collective, String algorithm, int root, long bytes, String variant,
            ScheduleBuffers buffers, int tag, Supplier<Schedule> builder) {
        int p = ch.size();
        CompiledSchedule compiled = CACHE.get(new ScheduleCache.Key(collective, algorithm, p, root, bytes, variant),
                builder);
        return ScheduleRequest.start(compiled, ch, buffers, participants(p), ch.rank(), tag);
    }

    /**
     * Runs a one-to-many schedule rooted at index 0 over {@code participants} (schedule rank i is
     * communicator rank {@code participants[i]}; {@code me} is this rank's index), one cached schedule
     * per (algorithm, participant count, bytes) whatever the root and group.
     */
    static void runRooted(CollChannel ch, Collective collective, String algorithm, Buffer buf, int[] participants,
            int me, int tag, Supplier<Schedule> builder) {
        CompiledSchedule compiled = CACHE.get(new ScheduleCache.Key(collective, algorithm, participants.length, 0,
                buf.byteLength(), ""), builder);
        ScheduleRunner.run(compiled, ch, ScheduleBuffers.of(buf), participants, me, tag);
    }

    /** As {@link #runRooted}, but only starts. */
    static Request startRooted(CollChannel ch, Collective collective, String algorithm, Buffer buf,
            int[] participants, int me, int tag, Supplier<Schedule> builder) {
        CompiledSchedule compiled = CACHE.get(new ScheduleCache.Key(collective, algorithm, participants.length, 0,
                buf.byteLength(), ""), builder);
        return ScheduleRequest.start(compiled, ch, ScheduleBuffers.of(buf), participants, me, tag);
    }

    /** The communicator rotated so that index i is rank (root + i) mod p: a bcast's participants. */
    static int[] rotated(int p, int root) {
        int[] ranks = new int[p];
        for (int i = 0; i < p; i++) {
            ranks[i] = (root + i) % p;
        }
        return ranks;
    }

    /** A request that is already complete: the part of a rank with nothing to do. */
    static Request done(CollChannel ch, Buffer buf, int tag) {
        return ScheduleRequest.start(CompiledSchedule.of(NOTHING), ch, ScheduleBuffers.of(buf), new int[] {ch.rank()},
                0, tag);
    }

    private static final Schedule NOTHING = Schedule.builder(Collective.MULTICAST, "none", 1, 0, 0).build();

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
