package io.mpirunj.collectives.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.multicast.BinomialMulticast;
import io.mpirunj.collectives.multicast.ChainMulticast;
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

    @Test
    void wakeDelaysWhatAReceiverHoldsButOccupiesNoCpu() {
        // as above with one CPU, and wake=5: rank 1 takes the CPU at 20 and holds the data at 25, rank 2 takes it
        // at 30 (the CPU is free at 30, not 35: waking is latency, not work) and holds the data at 35
        Simulation s = Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=10,cpus=1,wake=5"));
        assertEquals(25.0, s.rankCompletion(1), 1e-9);
        assertEquals(35.0, s.rankCompletion(2), 1e-9);
        assertEquals(35.0, s.completion(), 1e-9);
    }

    /**
     * The flat tree's root pays t_hold per receiver; a tree pays wake once per hop. Eight ranks on two CPUs,
     * t_hold 10, t_end 20. Without wake the flat and the binomial tree tie at 80 (the root's sends at 0..60,
     * the last held at 80; the binomial tree, 60 with a CPU per rank, waits for the shared CPUs), the chain
     * takes 7 x 20 = 140. With wake=30 the flat tree wins: its last leaf holds the data at 60 + 20 + 30 = 110,
     * the binomial tree's deepest at 3 x (20 + 30) = 150, the chain's at 7 x 50 = 350.
     */
    @Test
    void wakeChargesEveryHopSoDepthCostsOnSharedCpus() {
        Schedule flat = SequentialMulticast.build(8, 0, 100, null);
        Schedule binomial = BinomialMulticast.build(8, 0, 100, null);
        Schedule chain = ChainMulticast.build(8, 0, 100, null);
        String shared = "hold=10,end=20,cpus=2";
        assertEquals(80.0, Simulator.event(flat, ModelSpec.parse(shared)).completion(), 1e-9);
        assertEquals(80.0, Simulator.event(binomial, ModelSpec.parse(shared)).completion(), 1e-9);
        assertEquals(140.0, Simulator.event(chain, ModelSpec.parse(shared)).completion(), 1e-9);
        String waking = shared + ",wake=30";
        assertEquals(110.0, Simulator.event(flat, ModelSpec.parse(waking)).completion(), 1e-9);
        assertEquals(150.0, Simulator.event(binomial, ModelSpec.parse(waking)).completion(), 1e-9);
        assertEquals(350.0, Simulator.event(chain, ModelSpec.parse(waking)).completion(), 1e-9);
    }
}
