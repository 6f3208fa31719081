package io.mpirunj.collectives.runner;

import io.mpirunj.collectives.schedule.ProgramAnalysis;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A schedule together with its {@link ProgramAnalysis} and per-rank execution plans, each computed on
 * first use. This is what the {@link ScheduleCache} keeps, so a repeated collective neither rebuilds
 * the schedule nor re-derives its rank's program. Thread-safe: ranks running as threads of one JVM
 * share one instance; a plan compiled twice by a race is identical, and either copy is kept.
 */
public final class CompiledSchedule {

    private final Schedule schedule;
    private final AtomicReferenceArray<RankPlan> plans;
    private volatile ProgramAnalysis analysis;

    private CompiledSchedule(Schedule schedule) {
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.plans = new AtomicReferenceArray<>(schedule.ranks());
    }

    /** Wraps {@code schedule}; any schedule the analysis accepts can run. */
    public static CompiledSchedule of(Schedule schedule) {
        return new CompiledSchedule(schedule);
    }

    public Schedule schedule() {
        return schedule;
    }

    /** The schedule's analysis, computed on first use. */
    public ProgramAnalysis analysis() {
        ProgramAnalysis a = analysis;
        if (a == null) {
            a = ProgramAnalysis.of(schedule);
            analysis = a;
        }
        return a;
    }

    /** Schedule rank {@code rank}'s plan, compiled on first use. */
    RankPlan plan(int rank) {
        RankPlan p = plans.get(rank);
        if (p == null) {
            p = RankPlan.compile(analysis(), rank);
            plans.compareAndSet(rank, null, p);
        }
        return p;
    }

    @Override
    public String toString() {
        return schedule.toString();
    }
}
