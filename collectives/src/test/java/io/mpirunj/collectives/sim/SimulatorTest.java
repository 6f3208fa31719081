package io.mpirunj.collectives.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.HandSchedules;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.CostModelNetwork;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.model.NetworkModel;
import io.mpirunj.fabric.model.PairCostModel;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Hand-made schedules whose event and round times can be worked out on paper. */
@Timeout(10)
class SimulatorTest {

    private static final CostModel MODEL = ModelSpec.parse("hold=10,end=40");
    private static final List<Block> A = List.of(new Block.Segment(0, 5));
    private static final List<Block> B = List.of(new Block.Segment(5, 5));

    private static Schedule.Builder multicast(int ranks, int root) {
        return Schedule.builder(Collective.MULTICAST, "hand", ranks, root, 10);
    }

    private static Message message(Simulation sim, int src, int dst) {
        return sim.messages().stream().filter(m -> m.src() == src && m.dst() == dst).findFirst().orElseThrow();
    }

    @Test
    void consecutiveSendsAreHoldApartAndArriveEndLater() {
        Schedule s = multicast(3, 0).send(0, 1, 1).send(0, 2, 2).recv(1, 0, 1).recv(2, 0, 2).build();
        Simulation sim = Simulator.event(s, MODEL);
        assertEquals(List.of(new Message(0, 1, 0, 40, 1, 10, false), new Message(0, 2, 10, 50, 2, 10, false)),
                sim.messages());
        assertEquals(50, sim.completion());
        assertEquals(0, sim.rankCompletion(0));
        assertEquals(40, sim.rankCompletion(1));
    }

    @Test
    void aReceiverForwardsWhenItHoldsTheData() {
        Schedule s = multicast(3, 0).send(0, 1, 1).recv(1, 0, 1).send(1, 2, 2).recv(2, 1, 2).build();
        Simulation sim = Simulator.event(s, MODEL);
        assertEquals(40, message(sim, 1, 2).start());
        assertEquals(80, sim.completion());
    }

    @Test
    void consecutiveReceivesAreHoldApart() {
        // Rank 0 hands A to 1 (0..40) and B to 2 (10..50). Rank 1 forwards A to 2 at 40 and to 3 at 50;
        // rank 2 forwards B to 3 at 50 and to 1 at 60. Both messages into 3 arrive at 90: the second
        // completes t_hold later.
        Schedule s = multicast(4, 0).units(List.of(A.get(0), B.get(0)))
                .send(0, 1, 1, A).send(0, 2, 2, B)
                .recv(1, 0, 1, A).send(1, 2, 2, A).send(1, 3, 3, A).recv(1, 2, 4, B)
                .recv(2, 0, 2, B).send(2, 3, 3, B).send(2, 1, 4, B).recv(2, 1, 2, A)
                .recv(3, 1, 3, A).recv(3, 2, 3, B)
                .build();
        Simulation sim = Simulator.event(s, MODEL);
        assertEquals(List.of(0.0, 10.0, 40.0, 50.0, 50.0, 60.0), sim.messages().stream().map(Message::start).toList());
        assertEquals(90, message(sim, 1, 3).end());
        assertEquals(100, message(sim, 2, 3).end());
        assertEquals(100, sim.rankCompletion(3));

        // With two ports a rank completes two receives at once.
        Simulation twoPorts = Simulator.event(s, ModelSpec.parse("hold=10,end=40,ports=2"));
        assertEquals(List.of(0.0, 0.0, 40.0, 40.0, 40.0, 40.0), twoPorts.messages().stream().map(Message::start).toList());
        assertEquals(80, twoPorts.rankCompletion(3));
    }

    @Test
    void aSendWaitsOnlyForItsOwnDataNotForUnrelatedReceives() {
        // Rank 1 gets A at 40 and B at 50; it forwards A at 40 without waiting for B.
        Schedule s = multicast(3, 0).units(List.of(A.get(0), B.get(0)))
                .send(0, 1, 1, A).send(0, 1, 2, B).send(0, 2, 3, B)
                .recv(1, 0, 1, A).recv(1, 0, 2, B).send(1, 2, 2, A)
                .recv(2, 1, 2, A).recv(2, 0, 3, B)
                .build();
        Simulation sim = Simulator.event(s, MODEL);
        assertEquals(40, message(sim, 1, 2).start());
        assertEquals(80, message(sim, 1, 2).end());
        assertEquals(80, sim.completion());
    }

    @Test
    void receiveFirstOfTakesTheEarliestCopyAndDropsTheOther() {
        Schedule s = multicast(3, 0)
                .send(0, 2, 1).send(0, 1, 2)
                .recv(1, 0, 2).send(1, 2, 3)
                .recvFirstOf(2, new int[] {1, 0}, 1, Block.WHOLE_ONLY)
                .build();
        Simulation sim = Simulator.event(s, MODEL);
        assertEquals(new Message(0, 2, 0, 40, 1, 10, false), message(sim, 0, 2));
        assertEquals(new Message(1, 2, 50, 90, 3, 10, true), message(sim, 1, 2));
        assertEquals(40, sim.rankCompletion(2));
        assertEquals(50, sim.completion());
    }

    @Test
    void aDroppedCopyDoesNotOccupyTheReceivePort() {
        // Both parents' copies arrive at 40; the second is dropped, so a third message at 40 is not delayed.
        Schedule s = multicast(4, 0).units(List.of(A.get(0), B.get(0)))
                .send(0, 1, 1, A).send(0, 2, 1, A).send(0, 3, 1, B).send(0, 1, 1, B).send(0, 2, 1, B)
                .recv(1, 0, 1, A).recv(1, 0, 1, B)
                .recv(2, 0, 1, A).recv(2, 0, 1, B)
                .recvFirstOf(3, new int[] {1, 2}, 2, A).recv(3, 0, 1, B)
                .send(1, 3, 2, A).send(2, 3, 2, A)
                .build();
        CostModel fivePorts = ModelSpec.parse("hold=10,end=40,ports=5");
        Simulation sim = Simulator.event(s, fivePorts);
        assertEquals(80, sim.rankCompletion(3));
        assertEquals(1, sim.messages().stream().filter(Message::dropped).count());
    }

    @Test
    void roundsChargeTheLongestEndOfEachRound() {
        List<Block> small = List.of(new Block.Segment(0, 1));
        List<Block> large = List.of(new Block.Segment(1, 9));
        Schedule s = multicast(3, 0).units(List.of(small.get(0), large.get(0)))
                .send(0, 1, 1, small).send(0, 1, 2, large)
                .recv(1, 0, 1, small).send(1, 2, 2, small).recv(1, 0, 2, large).send(1, 2, 3, large)
                .recv(2, 1, 2, small).recv(2, 1, 3, large)
                .build();
        // Round 1 carries 1 byte (t_end 11); round 2 carries 9 bytes and 1 byte (19); round 3 9 bytes (19).
        CostModel linear = ModelSpec.parse("hold=1+1m,end=10+1m");
        Simulation rounds = Simulator.rounds(s, linear);
        assertEquals(Evaluation.ROUNDS, rounds.evaluation());
        assertEquals(List.of(0.0, 11.0, 11.0, 30.0), rounds.messages().stream().map(Message::start).toList());
        assertEquals(List.of(11.0, 30.0, 30.0, 49.0), rounds.messages().stream().map(Message::end).toList());
        assertEquals(30, rounds.rankCompletion(1));
        assertEquals(49, rounds.completion());
    }

    @Test
    void pairModelUsesEachPairsCostAndThePlacement() {
        double inf = Double.POSITIVE_INFINITY;
        PairCostModel pair = new PairCostModel(
                new double[][] {{0, 1, 100}, {1, 0, 5}, {100, 5, 0}},
                new double[][] {{inf, 10, 10}, {10, inf, 10}, {10, 10, inf}});
        // Schedule: 0 -> 1 -> 2 carrying 10 bytes (1 time unit of transfer).
        Schedule s = multicast(3, 0).send(0, 1, 1).recv(1, 0, 1).send(1, 2, 2).recv(2, 1, 2).build();
        assertEquals(2 + 6, Simulator.event(s, pair).completion());
        // Placed on nodes 2, 1, 0 instead: 5 + 1 + 1 + 1.
        Simulation placed = Simulator.event(s, new CostModelNetwork(pair), new int[] {2, 1, 0});
        assertEquals(6 + 2, placed.completion());
        // One send at a time until complete: the second send of a node waits for the first's cost.
        Schedule fan = multicast(3, 0).send(0, 1, 1).send(0, 2, 2).recv(1, 0, 1).recv(2, 0, 2).build();
        assertEquals(2 + 101, Simulator.event(fan, pair).completion());
    }

    @Test
    void anyNetworkCanDecideArrivals() {
        // A network that doubles t_end for messages into node 2, standing in for contention.
        CostModelNetwork base = new CostModelNetwork(MODEL);
        NetworkModel slowIntoTwo = new NetworkModel() {
            @Override
            public double sendGap(int src, int dst, long bytes) {
                return base.sendGap(src, dst, bytes);
            }

            @Override
            public double receiveGap(int src, int dst, long bytes) {
                return base.receiveGap(src, dst, bytes);
            }

            @Override
            public int ports() {
                return 1;
            }

            @Override
            public String describe() {
                return "slow-into-2";
            }

            @Override
            public Run open() {
                Run inner = base.open();
                return new Run() {
                    @Override
                    public void inject(int message, int src, int dst, long bytes, double start) {
                        inner.inject(message, src, dst, bytes, dst == 2 ? start + 40 : start);
                    }

                    @Override
                    public double nextDelivery() {
                        return inner.nextDelivery();
                    }

                    @Override
                    public int takeDelivery() {
                        return inner.takeDelivery();
                    }
                };
            }
        };
        Schedule s = multicast(3, 0).send(0, 2, 1).send(0, 1, 2).recv(1, 0, 2).recv(2, 0, 1).build();
        Simulation sim = Simulator.event(s, slowIntoTwo, new int[] {0, 1, 2});
        assertEquals("slow-into-2", sim.model());
        assertEquals(80, sim.rankCompletion(2));
        assertEquals(50, sim.rankCompletion(1));
    }

    @Test
    void deadlockedSchedulesFailInsteadOfHanging() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Simulator.event(HandSchedules.crossedForwarding(false), MODEL));
        assertTrue(e.getMessage().contains("deadlocks: 8 instructions never run"), e.getMessage());
        // Swapped: 2 gets A from 1 at 80 and forwards it, then B to 1 at 90 (arrives 130); 1 forwards B to 3 at 130.
        assertEquals(170, Simulator.event(HandSchedules.crossedForwarding(true), MODEL).completion());
    }

    @Test
    void schedulesThatCannotRunAreRejected() {
        Schedule unmatched = multicast(2, 0).send(0, 1, 1).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Simulator.event(unmatched, MODEL));
        assertTrue(e.getMessage().contains("unmatched send"), e.getMessage());
        Schedule undelivered = multicast(3, 0).send(0, 1, 1).recv(1, 0, 1).build();
        assertThrows(IllegalArgumentException.class, () -> Simulator.event(undelivered, MODEL));
        assertThrows(IllegalArgumentException.class,
                () -> Simulator.event(multicast(2, 0).send(0, 1, 1).recv(1, 0, 1).build(), new CostModelNetwork(MODEL), new int[] {0}));
    }

    @Test
    void singleRankCompletesAtZero() {
        Schedule s = multicast(1, 0).build();
        assertEquals(0, Simulator.event(s, MODEL).completion());
        assertEquals(0, Simulator.rounds(s, MODEL).completion());
    }
}
