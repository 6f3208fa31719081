package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/** What the scan and exscan algorithms share: their schedule (linear or recursive doubling) and how it runs. */
abstract class PrefixReduction implements CollectiveAlgorithm {
    private final boolean exclusive;
    private final boolean linear;

    PrefixReduction(boolean exclusive, boolean linear) {
        this.exclusive = exclusive;
        this.linear = linear;
    }

    @Override
    public String name() {
        return linear ? "linear" : "recursive-doubling";
    }

    @Override
    public String description() {
        return linear ? "chain: rank r waits for the prefix of r-1 (rank order)"
                : "recursive doubling: ceil(log2 p) exchanges of partial prefixes";
    }

    @Override
    public int priority() {
        return linear ? 5 : 10;
    }

    private Collective collective() {
        return exclusive ? Collective.EXSCAN : Collective.SCAN;
    }

    private int tag() {
        return exclusive ? CollTags.EXSCAN : CollTags.SCAN;
    }

    private Schedule build(int p, long bytes, Op op) {
        return linear ? ReductionBuilders.linearScan(p, bytes, op, exclusive)
                : ReductionBuilders.recursiveDoublingScan(p, bytes, op, exclusive);
    }

    final void run(CollChannel ch, Buffer send, Buffer recv, Op op) {
        int p = ch.size();
        long bytes = send.byteLength();
        Scheduled.run(ch, collective(), name(), -1, bytes, op.name(), ScheduleBuffers.of(send, recv), tag(),
                () -> build(p, bytes, op));
    }

    final Request start(CollChannel ch, Buffer send, Buffer recv, Op op) {
        int p = ch.size();
        long bytes = send.byteLength();
        return Scheduled.start(ch, collective(), name(), -1, bytes, op.name(), ScheduleBuffers.of(send, recv), tag(),
                () -> build(p, bytes, op));
    }
}
