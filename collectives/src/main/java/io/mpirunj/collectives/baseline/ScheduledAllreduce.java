package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * What the allreduce baselines share: their builder's schedule for {@code count} elements of
 * {@code elementBytes}, run (blocking) or started (non-blocking) by {@link Scheduled}, one cached
 * schedule per operator and element size. A subclass declares its name and builder.
 */
abstract class ScheduledAllreduce extends DeclaredBaseline<ScheduledAllreduce.Builder>
        implements CollectiveAlgorithm.Allreduce {

    /** The schedule for {@code p} ranks reducing {@code count} elements of {@code elementBytes} with {@code op}. */
    @FunctionalInterface
    interface Builder {
        Schedule build(int p, long count, int elementBytes, Op op);
    }

    ScheduledAllreduce(String name, String description, int priority, Builder builder) {
        super(name, description, priority, builder);
    }

    /** {@code bytes} one-byte elements. */
    @Override
    public final Schedule schedule(int ranks, int root, long bytes) {
        return builder.build(ranks, bytes, 1, Op.SUM);
    }

    @Override
    public final Request allreduce(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking) {
        int p = ch.size();
        int n = send.count();
        int eb = send.type().bytes();
        return Scheduled.go(blocking, ch, Collective.ALLREDUCE, name(), -1, (long) n * eb, op.name() + "/" + eb,
                ScheduleBuffers.of(send, recv), CollTags.ALLREDUCE, () -> builder.build(p, n, eb, op));
    }
}
