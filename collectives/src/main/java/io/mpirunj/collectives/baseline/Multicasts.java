package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.Arrays;

/**
 * How every one-to-many schedule runs (the baselines, the model-driven trees of
 * {@link io.mpirunj.collectives.ScheduleCollectives}, mesh, star and file schedules alike): a bcast
 * over the communicator rotated to start at the root, a multicast over the root and its group, the
 * same code for the blocking and the non-blocking forms.
 */
public final class Multicasts {
    private Multicasts() {
    }

    /** The compiled schedule an algorithm runs for {@code participants} (schedule rank i is participants[i]). */
    @FunctionalInterface
    public interface Plan {
        CompiledSchedule compiled(Collective collective, int[] participants);
    }

    /**
     * This rank's part of a bcast from {@code root}: run (blocking: returns null) or started. The
     * schedule is rooted at index 0 over the communicator rotated to start at the root.
     */
    public static Request bcast(boolean blocking, CollChannel ch, Buffer buf, int root, int tag, Plan plan) {
        int p = ch.size();
        if (p == 1) {
            return blocking ? null : done(ch, buf, tag);
        }
        int[] participants = rotated(p, root);
        return ScheduleRequest.runOrStart(blocking, plan.compiled(Collective.BCAST, participants), ch,
                ScheduleBuffers.of(buf), participants, (ch.rank() - root + p) % p, tag);
    }

    /**
     * This rank's part of a multicast from {@code root} to {@code group}: run (blocking: returns
     * null) or started. The schedule is rooted at index 0 over {@link #participants}; a rank outside
     * them, or a root with nobody to send to, has nothing to do.
     */
    public static Request multicast(boolean blocking, CollChannel ch, Buffer buf, int root, int[] group, int tag,
            Plan plan) {
        int[] participants = participants(root, group, ch.size());
        int me = indexOf(participants, ch.rank());
        if (me < 0 || participants.length == 1) {
            return blocking ? null : done(ch, buf, tag);
        }
        return ScheduleRequest.runOrStart(blocking, plan.compiled(Collective.MULTICAST, participants), ch,
                ScheduleBuffers.of(buf), participants, me, tag);
    }

    /** The communicator rotated so that index i is rank (root + i) mod p: a bcast's participants. */
    public static int[] rotated(int p, int root) {
        int[] ranks = new int[p];
        for (int i = 0; i < p; i++) {
            ranks[i] = (root + i) % p;
        }
        return ranks;
    }

    /** A request that is already complete: the part of a rank with nothing to do. */
    public static Request done(CollChannel ch, Buffer buf, int tag) {
        return ScheduleRequest.start(CompiledSchedule.of(NOTHING), ch, ScheduleBuffers.of(buf), new int[] {ch.rank()},
                0, tag);
    }

    private static final Schedule NOTHING = Schedule.builder(Collective.MULTICAST, "none", 1, 0, 0).build();

    /**
     * The root followed by the group's ranks in their given order, without the root and without
     * repeats. Every participant computes the same list from the same arguments.
     *
     * @param commSize the communicator's size; {@code root} and every group rank are below it
     */
    public static int[] participants(int root, int[] group, int commSize) {
        boolean[] seen = new boolean[commSize];
        int[] out = new int[group.length + 1];
        int n = 0;
        out[n++] = root;
        seen[root] = true;
        for (int g : group) {
            if (!seen[g]) {
                seen[g] = true;
                out[n++] = g;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Index of {@code rank} in {@code ranks}, or -1. */
    public static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }
}
