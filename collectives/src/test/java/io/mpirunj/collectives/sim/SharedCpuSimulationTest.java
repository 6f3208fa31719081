package io.mpirunj.collectives.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.multicast.SequentialMulticast;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.ModelSpec;
import org.junit.jupiter.api.Test;

/** {@code cpus=C}: sends and receives of all nodes share C CPUs, each holding one for its t_hold. */
class SharedCpuSimulationTest {

    /** Root 0 sends to 1 then 2; t_hold = t_end = 10. */
    private static final Schedule TWO_SENDS = SequentialMulticast.build(3, 0, 100, null);

    @Test
    void withACpuPerNodeOnlyThePortsSpaceTheSends() {
        // send 0->1 at 0 (arrives 10), send 0->2 at 10 (port free; arrives 20)
        assertEquals(20.0, Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=10")).completion(), 1e-9);
        // two shared CPUs are enough for the one send and one receive in progress at a time
        assertEquals(20.0, Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=10,cpus=2")).completion(), 1e-9);
    }

    @Test
    void oneSharedCpuSerialisesSendsAndReceives() {
        // CPU: send 0->1 [0,10], send 0->2 [10,20]; the receive of 0->1 arrives at 10 but waits for the CPU
        // until 20 and holds it [20,30]; the receive of 0->2 arrives at 20 and completes at 30
        Simulation s = Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=10,cpus=1"));
        assertEquals(30.0, s.completion(), 1e-9);
        assertEquals(20.0, s.rankCompletion(1), 1e-9);
        assertEquals(30.0, s.rankCompletion(2), 1e-9);
    }
}
