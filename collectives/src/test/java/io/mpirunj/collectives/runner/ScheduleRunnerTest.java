package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;
import io.mpirunj.Request;
import io.mpirunj.collectives.multicast.BinomialSegmentedMulticast;
import io.mpirunj.collectives.multicast.ChainPipelinedMulticast;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The runner on hand-made and built schedules, directly on a channel it can watch. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScheduleRunnerTest {

    private static final CostModel IBM_SP = ModelSpec.parse(ModelProvider.DEFAULT_SPEC);
    private static final CostModel LOGP = ModelSpec.parse("logp:L=6,o=2,g=4");
    private static final int TAG = 77;

    private static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    /**
     * Runs {@code schedule} over world ranks {@code participants} (root's buffer from {@code seed}),
     * checks every participant's data, and returns what each world rank asked its channel for.
     */
    private static Map<Integer, List<RecordingChannel.Op>> runAndCheck(Schedule schedule, int worldSize,
            int[] participants, Payloads kind, long seed, int repeats) {
        int elementBytes = kind.allocate(1).type().bytes();
        Map<Integer, List<RecordingChannel.Op>> recorded = new ConcurrentHashMap<>();
        LocalCluster.run(worldSize, RuntimeConfig.defaults(), world -> {
            RecordingChannel ch = new RecordingChannel(CollChannel.of(world));
            int me = indexOf(participants, world.rank());
            for (int rep = 0; rep < repeats; rep++) {
                if (me < 0) {
                    continue;
                }
                Buffer buf = kind.allocate((int) (schedule.messageBytes() / elementBytes));
                byte[] expected = Payloads.pattern(buf.byteLength(), seed + rep);
                Payloads.fill(buf, me == schedule.root() ? expected : Payloads.pattern(buf.byteLength(), ~seed));
                ScheduleRunner.run(schedule, ch, buf, participants, TAG);
                assertEquals(0, ch.pending(), "requests still in flight when the runner returned");
                Payloads.check(buf, expected, schedule + " rep " + rep + " on rank " + world.rank());
            }
            world.barrier();
            assertNull(world.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "a message was left behind on rank " + world.rank());
            recorded.put(world.rank(), ch.ops());
        });
        return recorded;
    }

    private static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }

    // ---- agreement with the simulator ---------------------------------------------------------

    static Stream<Arguments> simulated() {
        return Stream.of(
                Arguments.of("opt-tree ibm", MulticastAlgorithms.bcast("opt-tree", 9, 3, 5000, IBM_SP), IBM_SP),
                Arguments.of("fibonacci logp", MulticastAlgorithms.bcast("fibonacci", 9, 0, 5000, LOGP), LOGP),
                Arguments.of("binary-split", MulticastAlgorithms.multicast("binary-split", 7, 6, 333, IBM_SP), IBM_SP),
                Arguments.of("opt-tree-multiport", MulticastAlgorithms.multicast("opt-tree-multiport", 8, 0, 100,
                        ModelSpec.parse("hold=20,end=55,ports=2")), ModelSpec.parse("hold=20,end=55,ports=2")),
                Arguments.of("chain-pipelined x9", ChainPipelinedMulticast.build(6, 2, 20_001, 9), IBM_SP),
                Arguments.of("binomial-segmented x5", BinomialSegmentedMulticast.build(7, 0, 70_000, 5), IBM_SP),
                Arguments.of("first-of", firstOf(), IBM_SP));
    }

    /**
     * Each source issues exactly the simulator's messages, in the simulator's order, and each
     * destination posts its receives naming that source with the same sizes in the same order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("simulated")
    void sendsAndMatchingAgreeWithTheSimulator(String label, Schedule schedule, CostModel model) {
        Verifier.check(schedule);
        int k = schedule.ranks();
        Map<Integer, List<RecordingChannel.Op>> recorded = runAndCheck(schedule, k, identity(k), Payloads.BYTES, 11, 1);
        List<Message> simulated = Simulator.event(schedule, model).messages();
        for (int src = 0; src < k; src++) {
            List<String> expected = new ArrayList<>();
            for (Message m : simulated) {
                if (m.src() == src) {
                    expected.add(m.dst() + ":" + m.bytes());
                }
            }
            List<String> actual = new ArrayList<>();
            for (RecordingChannel.Op op : recorded.get(src)) {
                if (op.send()) {
                    actual.add(op.peer() + ":" + op.bytes());
                }
            }
            assertEquals(expected, actual, label + ": sends of rank " + src);
        }
        Map<String, List<Long>> sentPerPair = new HashMap<>();
        for (Message m : simulated) {
            sentPerPair.computeIfAbsent(m.src() + "->" + m.dst(), x -> new ArrayList<>()).add(m.bytes());
        }
        Map<String, List<Long>> postedPerPair = new HashMap<>();
        for (int dst = 0; dst < k; dst++) {
            for (RecordingChannel.Op op : recorded.get(dst)) {
                if (!op.send()) {
                    postedPerPair.computeIfAbsent(op.peer() + "->" + dst, x -> new ArrayList<>()).add((long) op.bytes());
                }
            }
        }
        assertEquals(sentPerPair, postedPerPair, label + ": receives posted per (source, destination)");
    }

    // ---- hand-made schedules ------------------------------------------------------------------

    /** 0 sends to 1 and 2, 1 forwards to 2, and 2 takes whichever copy completes first. */
    private static Schedule firstOf() {
        return Schedule.builder(Collective.MULTICAST, "hand-first-of", 3, 0, 4000)
                .send(0, 2, 1).send(0, 1, 1)
                .recv(1, 0, 1).send(1, 2, 2)
                .recvFirstOf(2, new int[] {0, 1}, 1, Block.WHOLE_ONLY)
                .build();
    }

    @Test
    void firstOfDeliversOneCopyAndDrainsTheOther() {
        Schedule s = Verifier.check(firstOf());
        // Three back-to-back runs on one tag: a copy left undrained would be matched by the next run.
        Map<Integer, List<RecordingChannel.Op>> ops = runAndCheck(s, 3, identity(3), Payloads.INTS, 5, 3);
        assertEquals(6, ops.get(2).size(), "rank 2 posts one receive per parent per run");
    }

    /**
     * Segments A=[0,4) B=[4,8) C=[8,12): A and C travel together (listed in different orders by
     * sender and receiver, so both must lay them out by offset), then B; rank 1 forwards all three as
     * one message to 2 and A+C again to 3.
     */
    private static Schedule multiBlock() {
        Block a = new Block.Segment(0, 4);
        Block b = new Block.Segment(4, 4);
        Block c = new Block.Segment(8, 4);
        return Schedule.builder(Collective.MULTICAST, "hand-multi-block", 4, 0, 12)
                .units(List.of(a, b, c))
                .send(0, 1, 1, List.of(a, c)).send(0, 1, 2, List.of(b))
                .recv(1, 0, 1, List.of(c, a)).recv(1, 0, 2, List.of(b))
                .send(1, 3, 2, List.of(c, a)).send(1, 2, 3, List.of(b, a, c)).send(1, 3, 3, List.of(b))
                .recv(2, 1, 3, List.of(a, b, c))
                .recv(3, 1, 2, List.of(a, c)).recv(3, 1, 3, List.of(b))
                .build();
    }

    @Test
    void messagesOfSeveralBlocksArePackedByOffset() {
        Schedule s = Verifier.check(multiBlock());
        runAndCheck(s, 4, identity(4), Payloads.BYTES, 21, 2);
        runAndCheck(s, 4, identity(4), Payloads.INTS, 22, 2);
    }

    @Test
    void segmentsInsideElementsAreRoundedToElementBoundaries() {
        // 40 bytes = 10 ints cut into 7 segments (5 or 6 bytes) and into 40 one-byte segments
        // (most of which become empty messages); also 1000 bytes in 7 segments on 8-byte longs.
        runAndCheck(ChainPipelinedMulticast.build(5, 1, 40, 7), 5, identity(5), Payloads.INTS, 31, 2);
        runAndCheck(ChainPipelinedMulticast.build(5, 1, 40, 40), 5, identity(5), Payloads.INTS, 32, 2);
        runAndCheck(BinomialSegmentedMulticast.build(6, 0, 1000, 7), 6, identity(6), Payloads.DIRECT_LONGS_BIG_ENDIAN,
                33, 2);
    }

    @Test
    void participantsMapScheduleRanksToAnyCommRanks() {
        // A 4-rank schedule on world ranks 5, 2, 6, 0 of 7; ranks 1, 3, 4 take no part.
        Schedule s = MulticastAlgorithms.multicast("binomial", 4, 0, 100, IBM_SP);
        Map<Integer, List<RecordingChannel.Op>> ops = runAndCheck(s, 7, new int[] {5, 2, 6, 0}, Payloads.BYTES, 41, 2);
        for (int outsider : new int[] {1, 3, 4}) {
            assertTrue(ops.get(outsider).isEmpty());
        }
    }

    @Test
    void aDeadPeerFailsTheRanksThatNeedItInsteadOfHanging() {
        Schedule chain = MulticastAlgorithms.bcast("chain", 4, 0, 10, IBM_SP);
        AtomicReferenceArray<Throwable> seen = new AtomicReferenceArray<>(4);
        AssertionError e = assertThrows(AssertionError.class, () -> LocalCluster.run(4, RuntimeConfig.defaults(),
                Duration.ofSeconds(30), world -> {
                    if (world.rank() == 2) {
                        throw new IllegalStateException("rank 2 dies");
                    }
                    try {
                        ScheduleRunner.run(chain, CollChannel.of(world), Buffer.of(new byte[10]), identity(4), TAG);
                    } catch (RuntimeException ex) {
                        seen.set(world.rank(), ex);
                        throw ex;
                    }
                }));
        assertTrue(e.getMessage().contains("rank 2 dies"), e.getMessage());
        assertInstanceOf(RankFailedException.class, seen.get(3), "rank 3 waits on rank 2");
    }

    @Test
    void aSizeMismatchBetweenRanksIsReported() {
        // Rank 1 expects 8 bytes, rank 0 sends 4: ranks that built different schedules.
        Schedule big = MulticastAlgorithms.bcast("binomial", 2, 0, 8, IBM_SP);
        Schedule small = MulticastAlgorithms.bcast("binomial", 2, 0, 4, IBM_SP);
        AtomicReferenceArray<Throwable> seen = new AtomicReferenceArray<>(2);
        assertThrows(AssertionError.class, () -> LocalCluster.run(2, RuntimeConfig.defaults(), Duration.ofSeconds(30),
                world -> {
                    try {
                        Schedule s = world.rank() == 0 ? small : big;
                        ScheduleRunner.run(s, CollChannel.of(world), Buffer.of(new byte[(int) s.messageBytes()]),
                                identity(2), TAG);
                    } catch (RuntimeException ex) {
                        seen.set(world.rank(), ex);
                        throw ex;
                    }
                }));
        assertInstanceOf(MpiException.class, seen.get(1));
        assertTrue(seen.get(1).getMessage().contains("same schedule"), seen.get(1).getMessage());
    }

    // ---- argument checks (no cluster) ---------------------------------------------------------

    @Test
    void argumentsAreChecked() {
        Schedule s = MulticastAlgorithms.bcast("binomial", 3, 0, 8, IBM_SP);
        IllegalArgumentException wrongSize = assertThrows(IllegalArgumentException.class,
                () -> ScheduleRunner.run(s, stub(0, 3), Buffer.of(new byte[9]), identity(3), TAG));
        assertTrue(wrongSize.getMessage().contains("messageBytes=8"), wrongSize.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ScheduleRunner.run(s, stub(0, 3), Buffer.of(new byte[8]), identity(2), TAG));
        IllegalArgumentException outsider = assertThrows(IllegalArgumentException.class,
                () -> ScheduleRunner.run(s, stub(5, 6), Buffer.of(new byte[8]), identity(3), TAG));
        assertTrue(outsider.getMessage().contains("rank 5"), outsider.getMessage());
    }

    @Test
    void aRankWithNothingToDoReturnsAtOnce() {
        Schedule single = MulticastAlgorithms.bcast("opt-tree", 1, 0, 100, IBM_SP);
        ScheduleRunner.run(single, stub(0, 1), Buffer.of(new byte[100]), identity(1), TAG);
        ScheduleRunner.run(CompiledSchedule.of(single), stub(0, 1), Buffer.of(new byte[100]), identity(1), TAG);
        assertNotNull(CompiledSchedule.of(single).schedule());
    }

    /** A channel for argument checks: any communication fails the test. */
    private static CollChannel stub(int rank, int size) {
        return new CollChannel() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public Comm comm() {
                throw new AssertionError("unexpected");
            }

            @Override
            public Request isend(Buffer buf, int dest, int tag) {
                throw new AssertionError("unexpected send");
            }

            @Override
            public Request irecv(Buffer buf, int source, int tag) {
                throw new AssertionError("unexpected receive");
            }

            @Override
            public CollectiveRegistry registry() {
                throw new AssertionError("unexpected");
            }
        };
    }
}
