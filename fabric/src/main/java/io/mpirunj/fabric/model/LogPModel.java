package io.mpirunj.fabric.model;

/**
 * LogP (Culler et al.): latency L, overhead o, gap g. A message sent at t is usable by the
 * receiver at t + o + L + o, and a process can start its next send (or finish its next receive)
 * g later, so t_end = L + 2o and t_hold = g, independent of the message size (paper 002 uses
 * LogP this way). Spec: {@code logp:L=6,o=2,g=4[,ports=P]}.
 */
public record LogPModel(double latency, double overhead, double gap, int ports) implements CostModel {

    public LogPModel {
        Numbers.requireFiniteNonNegative("L", latency);
        Numbers.requireFiniteNonNegative("o", overhead);
        Numbers.requireFiniteNonNegative("g", gap);
        if (ports < 1) {
            throw new IllegalArgumentException("ports=" + ports + " (expected: >= 1)");
        }
    }

    public static LogPModel of(double latency, double overhead, double gap) {
        return new LogPModel(latency, overhead, gap, 1);
    }

    @Override
    public double tHold(long bytes) {
        return gap;
    }

    @Override
    public double tEnd(long bytes) {
        return latency + 2 * overhead;
    }

    @Override
    public String toString() {
        return "logp:L=" + Numbers.format(latency) + ",o=" + Numbers.format(overhead)
                + ",g=" + Numbers.format(gap) + (ports == 1 ? "" : ",ports=" + ports);
    }
}
