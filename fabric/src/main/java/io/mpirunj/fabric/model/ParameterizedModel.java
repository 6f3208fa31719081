package io.mpirunj.fabric.model;

import java.util.Objects;

/**
 * The parameterized communication model of paper 000: t_hold and t_end, each linear in the
 * message size (IBM SP: {@code hold=20+0.02m,end=55+0.07m}, microseconds, m in bytes).
 * Spec: {@code hold=A[+Bm],end=C[+Dm][,ports=P]}.
 */
public final class ParameterizedModel implements CostModel {

    private final LinearCost hold;
    private final LinearCost end;
    private final int ports;

    public ParameterizedModel(LinearCost hold, LinearCost end, int ports) {
        this.hold = Objects.requireNonNull(hold, "hold");
        this.end = Objects.requireNonNull(end, "end");
        if (ports < 1) {
            throw new IllegalArgumentException("ports=" + ports + " (expected: >= 1)");
        }
        this.ports = ports;
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
    public boolean equals(Object o) {
        return o instanceof ParameterizedModel other
                && hold.equals(other.hold) && end.equals(other.end) && ports == other.ports;
    }

    @Override
    public int hashCode() {
        return Objects.hash(hold, end, ports);
    }

    @Override
    public String toString() {
        return "hold=" + hold + ",end=" + end + (ports == 1 ? "" : ",ports=" + ports);
    }
}
