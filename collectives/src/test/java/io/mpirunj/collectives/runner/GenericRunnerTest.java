package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.ProgramAnalysis;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.testing.LocalCluster;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generic runner on schedules the old one could not run: all-to-all blocks (also through
 * intermediate ranks, in combined messages), local COPY/REDUCE, named buffers; and the simulator's
 * message count equals what the runner sends.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GenericRunnerTest {

    private static final CostModel MODEL = ModelSpec.parse(ModelProvider.DEFAULT_SPEC);
    private static final int TAG = 91;

    private static int[] identity(int n) {
        return IntStream.range(0, n).toArray();
    }

    static Stream<Arguments> alltoalls() {
        return Stream.of("pairwise", "linear", "bruck").flatMap(name -> IntStream.rangeClosed(1, 9)
                .mapToObj(p -> Arguments.of(name, p)));
    }

    private static Schedule alltoall(String name, int p, long blockBytes, long[][] pairBytes) {
        return switch (name) {
            case "pairwise" -> AlltoallBuilders.pairwise(p, blockBytes, pairBytes);
            case "linear" -> AlltoallBuilders.linear(p, blockBytes, pairBytes);
            default -> AlltoallBuilders.bruck(p, blockBytes, pairBytes);
        };
    }

    /** Element i of block d on rank o: a value naming all three, so any misplaced element shows. */
    private static int value(int o, int d, int i) {
        return o * 1_000_000 + d * 1_000 + i;
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("alltoalls")
    void allToAllDeliversEveryBlockAndSendsWhatTheSimulatorCounts(String name, int p) {
        int n = 3;
        Schedule s = alltoall(name, p, 4L * n, null);
        assertEquals(List.of(), Verifier.verify(s));
        CompiledSchedule compiled = CompiledSchedule.of(s);
        AtomicInteger sent = new AtomicInteger();
        LocalCluster.run(p, RuntimeConfig.defaults(), world -> {
            RecordingChannel ch = new RecordingChannel(CollChannel.of(world));
            int r = world.rank();
            int[] send = new int[p * n];
            for (int d = 0; d < p; d++) {
                for (int i = 0; i < n; i++) {
                    send[d * n + i] = value(r, d, i);
                }
            }
            int[] recv = new int[p * n];
            for (int rep = 0; rep < 2; rep++) {
                ScheduleRunner.run(compiled, ch, ScheduleBuffers.of(Buffer.of(send), Buffer.of(recv)), identity(p), r,
                        TAG);
                for (int o = 0; o < p; o++) {
                    for (int i = 0; i < n; i++) {
                        assertEquals(value(o, r, i), recv[o * n + i], "rank " + r + " block " + o + " element " + i);
                    }
                }
            }
            sent.addAndGet((int) ch.ops().stream().filter(RecordingChannel.Op::send).count());
        });
        assertEquals(2 * Simulator.event(s, MODEL).messages().size(), sent.get());
    }

    @Test
    void alltoallvWithDisplacementsPlacesEveryBlock() {
        int p = 5;
        long[][] bytes = new long[p][p];
        for (int o = 0; o < p; o++) {
            for (int d = 0; d < p; d++) {
                bytes[o][d] = 4L * ((o + 2 * d) % 4); // some blocks empty
            }
        }
        for (String name : List.of("pairwise", "linear", "bruck")) {
            Schedule s = alltoall(name, p, 0, bytes);
            assertEquals(List.of(), Verifier.verify(s), name);
            LocalCluster.run(p, RuntimeConfig.defaults(), world -> {
                int r = world.rank();
                // Blocks laid out in reverse order with a gap, so packed offsets would be wrong.
                int[] sendDispls = new int[p];
                int[] recvDispls = new int[p];
                int at = 0;
                int rat = 0;
                for (int d = p - 1; d >= 0; d--) {
                    sendDispls[d] = at;
                    at += bytes[r][d] / 4 + 1;
                    recvDispls[d] = rat;
                    rat += bytes[d][r] / 4 + 2;
                }
                int[] sendCounts = new int[p];
                int[] recvCounts = new int[p];
                for (int q = 0; q < p; q++) {
                    sendCounts[q] = (int) bytes[r][q] / 4;
                    recvCounts[q] = (int) bytes[q][r] / 4;
                }
                int[] send = new int[at];
                for (int d = 0; d < p; d++) {
                    for (int i = 0; i < bytes[r][d] / 4; i++) {
                        send[sendDispls[d] + i] = value(r, d, i);
                    }
                }
                int[] recv = new int[rat];
                ScheduleRunner.run(CompiledSchedule.of(s), CollChannel.of(world),
                        new ScheduleBuffers(Buffer.of(send), Buffer.of(recv), sendCounts, sendDispls, recvCounts,
                                recvDispls), identity(p), r, TAG);
                for (int o = 0; o < p; o++) {
                    for (int i = 0; i < bytes[o][r] / 4; i++) {
                        assertEquals(value(o, r, i), recv[recvDispls[o] + i], name + " rank " + r + " from " + o);
                    }
                }
            });
        }
    }

    @Test
    void combinedBlocksTravelThroughIntermediatesInScratch() {
        // A 4-rank ring where every block moves only to the right neighbour, SEM-style: each message
        // carries every block the sender holds that is not yet home, combined.
        int p = 4;
        Schedule.Builder b = Schedule.builder(Collective.ALLTOALL, "ring-forward", p, -1, 8);
        for (int r = 0; r < p; r++) {
            b.copy(r, 0, new Block.Pair(r, r), new Block.Pair(r, r));
        }
        for (int hop = 1; hop < p; hop++) {
            for (int h = 0; h < p; h++) {
                List<Block> carried = new java.util.ArrayList<>();
                for (int o = 0; o < p; o++) {
                    for (int d = 0; d < p; d++) {
                        int distance = Math.floorMod(d - o, p);
                        if (Math.floorMod(h - o, p) == hop - 1 && distance >= hop) {
                            carried.add(new Block.Pair(o, d));
                        }
                    }
                }
                b.send(h, (h + 1) % p, hop, carried);
                // The receiver lists the same blocks in another order: the wire order is canonical.
                List<Block> reversed = new java.util.ArrayList<>(carried);
                java.util.Collections.reverse(reversed);
                b.recv((h + 1) % p, h, hop, reversed);
            }
        }
        Schedule s = b.build();
        assertEquals(List.of(), Verifier.verify(s));
        ProgramAnalysis a = ProgramAnalysis.of(s);
        assertEquals(3 * 8, a.scratchBytes(1), "rank 1 forwards (0,2), (0,3) and (3,2)");
        LocalCluster.run(p, RuntimeConfig.defaults(), world -> {
            int r = world.rank();
            long[] send = new long[p];
            for (int d = 0; d < p; d++) {
                send[d] = value(r, d, 0);
            }
            long[] recv = new long[p];
            ScheduleRunner.run(CompiledSchedule.of(s), CollChannel.of(world),
                    ScheduleBuffers.of(Buffer.of(send), Buffer.of(recv)), identity(p), r, TAG);
            for (int o = 0; o < p; o++) {
                assertEquals(value(o, r, 0), recv[o], "rank " + r + " from " + o);
            }
        });
    }

    static Stream<Arguments> sizes() {
        return IntStream.rangeClosed(1, 9).mapToObj(Arguments::of);
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void recursiveDoublingAllreduceAndBinomialReduceCombineEveryRank(int p) {
        int n = 5;
        Schedule all = ReductionBuilders.recursiveDoublingAllreduce(p, 8L * n, Op.SUM);
        assertEquals(List.of(), Verifier.verify(all));
        List<Schedule> reduces = IntStream.range(0, p).mapToObj(root -> ReductionBuilders.binomialReduce(p, root,
                8L * n, Op.MAX)).toList();
        reduces.forEach(s -> assertEquals(List.of(), Verifier.verify(s), s.toString()));
        IntFunction<long[]> contribution = r -> LongsOf.of(n, i -> (long) (r + 1) * (i + 7));
        LocalCluster.run(p, RuntimeConfig.defaults(), world -> {
            int r = world.rank();
            long[] recv = new long[n];
            ScheduleRunner.run(CompiledSchedule.of(all), CollChannel.of(world),
                    ScheduleBuffers.of(Buffer.of(contribution.apply(r)), Buffer.of(recv)), identity(p), r, TAG);
            long[] expected = new long[n];
            for (int q = 0; q < p; q++) {
                for (int i = 0; i < n; i++) {
                    expected[i] += contribution.apply(q)[i];
                }
            }
            assertArrayEquals(expected, recv, "allreduce at rank " + r);
            for (int root = 0; root < p; root++) {
                long[] out = new long[n];
                ScheduleRunner.run(CompiledSchedule.of(reduces.get(root)), CollChannel.of(world),
                        ScheduleBuffers.of(Buffer.of(contribution.apply(r)), Buffer.of(out)), identity(p), r, TAG);
                if (r == root) {
                    assertArrayEquals(contribution.apply(p - 1), out, "reduce(max) at root " + root);
                }
            }
        });
    }

    @Test
    void aWriteToBytesStillBeingSentWaitsForTheSend() {
        // Both ranks swap values through one buffer. Rank 0 receives into the bytes it sent (the
        // receive is posted once the send completed); rank 1 lands the value in scratch and copies
        // it over its sent bytes afterwards.
        Block mine = Block.range(Block.Role.RECV, 0, 4);
        Block landing = Block.range(Block.Role.SCRATCH, 0, 4);
        Schedule s = Schedule.builder(Collective.ALLREDUCE, "swap", 2, -1, 4)
                .copy(0, 0, Block.range(Block.Role.SEND, 0, 4), mine)
                .send(0, 1, 1, List.of(mine))
                .recv(0, 1, 1, List.of(mine))
                .copy(1, 0, Block.range(Block.Role.SEND, 0, 4), mine)
                .recv(1, 0, 1, List.of(landing))
                .send(1, 0, 1, List.of(mine))
                .copy(1, 2, landing, mine)
                .build();
        ProgramAnalysis a = ProgramAnalysis.of(s);
        assertEquals(List.of(a.id(0, 0), a.id(0, 1)), hazards(a, a.id(0, 2)),
                "rank 0's receive waits for the copy and the send of the same bytes");
        assertEquals(List.of(a.id(1, 0), a.id(1, 2)), hazards(a, a.id(1, 3)), "rank 1's copy waits for its send");
        assertEquals(a.id(1, 1), a.provider(a.id(1, 3), 0), "and reads what the receive wrote");
        assertEquals(List.of(), Verifier.verify(s));
        LocalCluster.run(2, RuntimeConfig.defaults(), world -> {
            int r = world.rank();
            int[] recv = new int[1];
            ScheduleRunner.run(CompiledSchedule.of(s), CollChannel.of(world),
                    ScheduleBuffers.of(Buffer.of(new int[] {10 + r}), Buffer.of(recv)), identity(2), r, TAG);
            assertEquals(10 + (1 - r), recv[0]);
        });
    }

    @Test
    void bothRanksReceivingIntoTheBytesTheySentIsADeadlockForLargeMessages() {
        // (the receive buffer: a write into the send buffer is refused before progress is looked at)
        Block mine = Block.range(Block.Role.RECV, 0, 4);
        Schedule.Builder b = Schedule.builder(Collective.ALLREDUCE, "swap", 2, -1, 4);
        for (int r = 0; r < 2; r++) {
            b.copy(r, 0, Block.range(Block.Role.SEND, 0, 4), mine);
            b.send(r, 1 - r, 1, List.of(mine)).recv(r, 1 - r, 1, List.of(mine));
        }
        List<String> errors = Verifier.verify(b.build());
        assertTrue(errors.contains("deadlock: rank 0 #2 (RECV recv[0,4) <- 1 (step 1)) can never be posted"),
                errors::toString);
    }

    private static List<Integer> hazards(ProgramAnalysis a, int id) {
        return IntStream.range(0, a.hazardCount(id)).map(i -> a.hazard(id, i)).boxed().toList();
    }

    /** long[] helper. */
    private static final class LongsOf {
        static long[] of(int n, java.util.function.IntToLongFunction f) {
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = f.applyAsLong(i);
            }
            return out;
        }
    }
}
