package io.mpirunj.fabric.model;

import java.util.Objects;

/**
 * The parameterized communication model of paper 000: t_hold and t_end, each linear in the
 * message size (IBM SP: {@code hold=20+0.02m,end=55+0.07m}, microseconds, m in bytes).
 * Spec: {@code hold=A[+Bm],end=C[+Dm][,ports=P][,cpus=C]}; {@code cpus} is the number of CPUs all
 * nodes share ({@link CostModel#cpus()}), absent when each node has its own.
 */
public final class ParameterizedModel implements CostModel {

    private final LinearCost hold;
    private final LinearCost end;
    private final int ports;
    private final int cpus;

    public ParameterizedModel(LinearCost hold, LinearCost end, int ports) {
        this(hold, end, ports, 0);
    }

    /** @param cpus CPUs the nodes share, 0 when each node has its own ({@link CostModel#cpus()}) */
    public ParameterizedModel(LinearCost hold, LinearCost end, int ports, int cpus) {
        this.hold = Objects.requireNonNull(hold, "hold");
        this.end = Objects.requireNonNull(end, "end");
        if (ports < 1) {
            throw new IllegalArgumentException("ports=" + ports + " (expected: >= 1)");
        }
        this.ports = ports;
        if (cpus < 0) {
            throw new IllegalArgumentException("cpus=" + cpus + " (expected: >= 1, or 0 for one per node)");
        }
        this.cpus = cpus;
    }

    /** The same model on nodes that share {@code cpus} CPUs (0: each node has its own). */
    public ParameterizedModel withCpus(int cpus) {
        return new ParameterizedModel(hold, end, ports, cpus);
    }

    /** Size-independent one-port model. */
    public static ParameterizedModel of(double tHold, double tEnd) {
        return new ParameterizedModel(LinearCost.of(tHold), LinearCost.of(tEnd), 1);
    }

    public LinearCost hold() {
        return hold;
    }

    public LinearCost end() {
        return end;
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
    public int ports() {
        return ports;
    }

    @Override
    public int cpus() {
        return cpus;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParameterizedModel other
                && hold.equals(other.hold) && end.equals(other.end) && ports == other.ports && cpus == other.cpus;
    }

    @Override
    public int hashCode() {
        return Objects.hash(hold, end, ports, cpus);
    }

    @Override
    public String toString() {
        return "hold=" + hold + ",end=" + end + (ports == 1 ? "" : ",ports=" + ports) + (cpus == 0 ? "" : ",cpus=" + cpus);
    }
}
