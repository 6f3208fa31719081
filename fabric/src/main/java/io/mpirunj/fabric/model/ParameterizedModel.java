package io.mpirunj.fabric.model;

import java.util.Objects;

/**
 * The parameterized communication model of paper 000: t_hold and t_end, each linear in the
 * message size (IBM SP: {@code hold=20+0.02m,end=55+0.07m}, microseconds, m in bytes).
 * Spec: {@code hold=A[+Bm],end=C[+Dm][,ports=P][,cpus=C[,wake=W[+Xm]]][,rndv=R]}; {@code cpus} is the number of
 * CPUs all nodes share ({@link CostModel#cpus()}), absent when each node has its own; {@code wake} is
 * the latency of a receiver scheduled onto one of them ({@link CostModel#tWake}), only with {@code cpus};
 * {@code rndv} the size above which messages go by rendezvous ({@link CostModel#rendezvousAbove()}), absent: never.
 */
public record ParameterizedModel(LinearCost hold, LinearCost end, int ports, int cpus, LinearCost wake,
        long rendezvousAbove) implements CostModel {

    public ParameterizedModel(LinearCost hold, LinearCost end, int ports) {
        this(hold, end, ports, 0);
    }

    /** @param cpus CPUs the nodes share, 0 when each node has its own ({@link CostModel#cpus()}) */
    public ParameterizedModel(LinearCost hold, LinearCost end, int ports, int cpus) {
        this(hold, end, ports, cpus, LinearCost.of(0));
    }

    /**
     * @param cpus CPUs the nodes share, 0 when each node has its own ({@link CostModel#cpus()})
     * @param wake a receiver's latency to be scheduled onto a shared CPU ({@link CostModel#tWake}); must be
     *             0 when {@code cpus} is 0 (a rank with a core of its own pays it inside t_end)
     */
    public ParameterizedModel(LinearCost hold, LinearCost end, int ports, int cpus, LinearCost wake) {
        this(hold, end, ports, cpus, wake, Long.MAX_VALUE);
    }

    /**
     * @param rendezvousAbove messages above this many bytes go by rendezvous ({@link CostModel#rendezvousAbove()});
     *                        {@link Long#MAX_VALUE}: none
     */
    public ParameterizedModel {
        Objects.requireNonNull(hold, "hold");
        Objects.requireNonNull(end, "end");
        if (ports < 1) {
            throw new IllegalArgumentException("ports=" + ports + " (expected: >= 1)");
        }
        if (cpus < 0) {
            throw new IllegalArgumentException("cpus=" + cpus + " (expected: >= 1, or 0 for one per node)");
        }
        Objects.requireNonNull(wake, "wake");
        if (cpus == 0 && !wake.equals(LinearCost.of(0))) {
            throw new IllegalArgumentException("wake=" + wake + " needs cpus=C (it is the latency of a rank"
                    + " scheduled onto one of C shared CPUs)");
        }
        if (rendezvousAbove < 0) {
            throw new IllegalArgumentException("rndv=" + rendezvousAbove + " (expected: >= 0 bytes)");
        }
    }

    /** The same model on nodes that share {@code cpus} CPUs (0: each node has its own), without a wake term. */
    public ParameterizedModel withCpus(int cpus) {
        return new ParameterizedModel(hold, end, ports, cpus, LinearCost.of(0), rendezvousAbove);
    }

    /** Size-independent one-port model. */
    public static ParameterizedModel of(double tHold, double tEnd) {
        return new ParameterizedModel(LinearCost.of(tHold), LinearCost.of(tEnd), 1);
    }

    @Override
    public double tHold(long bytes) {
        return hold.at(bytes);
    }

    @Override
    public double tEnd(long bytes) {
        return end.at(bytes);
    }

    @Override
    public double tWake(long bytes) {
        return wake.at(bytes);
    }

    @Override
    public String toString() {
        return "hold=" + hold + ",end=" + end + (ports == 1 ? "" : ",ports=" + ports) + (cpus == 0 ? "" : ",cpus=" + cpus)
                + (wake.equals(LinearCost.of(0)) ? "" : ",wake=" + wake)
                + (rendezvousAbove == Long.MAX_VALUE ? "" : ",rndv=" + rendezvousAbove);
    }
}
