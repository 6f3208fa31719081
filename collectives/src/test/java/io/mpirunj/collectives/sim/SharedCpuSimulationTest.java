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

    /**
     * Above {@code rndv} a send's data leaves a round trip after it is posted: RTS there, CTS back (t_end of an
     * empty message each way), plus, on shared CPUs, the receiver's wake to answer. t_hold 10, t_end 5 + 0.1 per
     * byte, 100-byte messages: the round trip is 10, so the root's first send starts at 10 (held at 25) and the
     * second one when the port frees, at 20 (held at 35); eager they are held at 15 and 25. A message of exactly
     * {@code rndv} bytes is eager.
     */
    @Test
    void rendezvousDelaysTheDataByTheHandshake() {
        Simulation eager = Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=5+0.1m"));
        assertEquals(15.0, eager.rankCompletion(1), 1e-9);
        assertEquals(25.0, eager.rankCompletion(2), 1e-9);
        Simulation rndv = Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=5+0.1m,rndv=99"));
        assertEquals(25.0, rndv.rankCompletion(1), 1e-9);
        assertEquals(35.0, rndv.rankCompletion(2), 1e-9);
        assertEquals(10.0, rndv.messages().get(0).start(), 1e-9);
        assertEquals(20.0, rndv.messages().get(1).start(), 1e-9);
        assertEquals(25.0, Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=5+0.1m,rndv=100")).completion(), 1e-9);
    }

    /**
     * On shared CPUs the receiver is woken to answer the RTS: round trip 5 + 3 + 5 = 13. Two CPUs: the first send
     * holds one [13, 23] and is held at 13 + 15 + wake 3 = 31; the second starts when the port frees, 23, on the
     * other CPU, arrives at 38 and is held at 41.
     */
    @Test
    void rendezvousOnSharedCpusWaitsForTheReceiverToWake() {
        Simulation s = Simulator.event(TWO_SENDS, ModelSpec.parse("hold=10,end=5+0.1m,cpus=2,wake=3,rndv=0"));
        assertEquals(31.0, s.rankCompletion(1), 1e-9);
        assertEquals(41.0, s.rankCompletion(2), 1e-9);
    }

    /**
     * The handshake overlaps a rank's earlier sends (the runner posts every send whose data it holds), so the
     * flat tree pays it once and a tree once per hop. Eight ranks, t_hold 10, t_end 20 (round trip 40), one CPU
     * per rank: eager the flat tree ends at 80 and the binomial tree at 60; by rendezvous the flat tree's sends
     * start at 40..100 (last held at 120), the binomial tree's three hops each wait 40 + 20: 180.
     */
    @Test
    void rendezvousCostsATreeOneRoundTripPerHop() {
        Schedule flat = SequentialMulticast.build(8, 0, 100, null);
        Schedule binomial = BinomialMulticast.build(8, 0, 100, null);
        assertEquals(80.0, Simulator.event(flat, ModelSpec.parse("hold=10,end=20")).completion(), 1e-9);
        assertEquals(60.0, Simulator.event(binomial, ModelSpec.parse("hold=10,end=20")).completion(), 1e-9);
        assertEquals(120.0, Simulator.event(flat, ModelSpec.parse("hold=10,end=20,rndv=0")).completion(), 1e-9);
        assertEquals(180.0, Simulator.event(binomial, ModelSpec.parse("hold=10,end=20,rndv=0")).completion(), 1e-9);
    }
}
