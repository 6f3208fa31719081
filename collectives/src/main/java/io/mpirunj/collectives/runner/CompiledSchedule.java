package io.mpirunj.collectives.runner;

import io.mpirunj.collectives.schedule.Schedule;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A schedule together with its per-rank execution plans, each compiled on first use. This is what
 * the {@link ScheduleCache} keeps, so a repeated collective neither rebuilds the schedule nor
 * re-derives its rank's program. Thread-safe: ranks running as threads of one JVM share one
 * instance; a plan compiled twice by a race is identical, and either copy is kept.
 */
public final class CompiledSchedule {

    private final Schedule schedule;
    private final AtomicReferenceArray<RankPlan> plans;

    private CompiledSchedule(Schedule schedule) {
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.plans = new AtomicReferenceArray<>(schedule.ranks());
    }

    /**
     * Wraps {@code schedule}.
     *
     * @throws UnsupportedOperationException for a schedule the runner cannot execute (all-to-all)
     */
    public static CompiledSchedule of(Schedule schedule) {
        if (!schedule.collective().rooted()) {
            throw RankPlan.unsupported(schedule);
        }
        return new CompiledSchedule(schedule);
    }

    public Schedule schedule() {
        return schedule;
    }

    /** Schedule rank {@code rank}'s plan, compiled on first use. */
    RankPlan plan(int rank) {
        RankPlan p = plans.get(rank);
        if (p == null) {
            p = RankPlan.compile(schedule, rank);
            plans.compareAndSet(rank, null, p);
        }
        return p;
    }

    @Override
    public String toString() {
        return schedule.toString();
    }
}
