package io.mpirunj.fabric.model;

import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A contention-free network driven by a {@link CostModel}: a message whose send starts at s is
 * held by the receiver at s + t_end(src, dst, m); a port's consecutive sends and receives are
 * spaced by t_hold(src, dst, m).
 */
public final class CostModelNetwork implements NetworkModel {

    private final CostModel model;

    public CostModelNetwork(CostModel model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    public CostModel model() {
        return model;
    }

    @Override
    public double sendGap(int src, int dst, long bytes) {
        return model.tHold(src, dst, bytes);
    }

    @Override
    public double receiveGap(int src, int dst, long bytes) {
        return model.tHold(src, dst, bytes);
    }

    @Override
    public int ports() {
        return model.ports();
    }

    @Override
    public int cpus() {
        return model.cpus();
    }

    @Override
    public double wake(int src, int dst, long bytes) {
        return model.tWake(bytes);
    }

    @Override
    public long rendezvousAbove() {
        return model.rendezvousAbove();
    }

    /** RTS (t_end of an empty message), the receiver's wake to answer, CTS back (t_end of an empty message). */
    @Override
    public double rendezvousRoundTrip(int src, int dst) {
        return model.tEnd(src, dst, 0) + model.tWake(0) + model.tEnd(dst, src, 0);
    }

    @Override
    public double firstOfDecision() {
        return model.firstOfDecision();
    }

    @Override
    public String describe() {
        return model.toString();
    }

    @Override
    public Run open() {
        return new Run() {
            // (arrival time, message id): ties resolve to the earlier-injected message.
            private final PriorityQueue<double[]> inFlight = new PriorityQueue<>(
                    (a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));

            @Override
            public void inject(int message, int src, int dst, long bytes, double start) {
                inFlight.add(new double[] {start + model.tEnd(src, dst, bytes), message});
            }

            @Override
            public double nextDelivery() {
                double[] head = inFlight.peek();
                return head == null ? Double.POSITIVE_INFINITY : head[0];
            }

            @Override
            public int takeDelivery() {
                double[] head = inFlight.poll();
                if (head == null) {
                    throw new IllegalStateException("no message in flight");
                }
                return (int) head[1];
            }
        };
    }

    @Override
    public String toString() {
        return describe();
    }
}
