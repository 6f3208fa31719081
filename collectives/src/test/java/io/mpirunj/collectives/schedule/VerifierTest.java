package io.mpirunj.collectives.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.builders.AlltoallBuilders;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-made schedules, valid and broken in exactly one way each. */
class VerifierTest {

    private static final List<Block> SEG0 = List.of(new Block.Segment(0, 5));
    private static final List<Block> SEG1 = List.of(new Block.Segment(5, 5));

    /** 0 -> 1 -> 2, whole buffer. */
    private static Schedule.Builder chain() {
        return Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10)
                .send(0, 1, 1).recv(1, 0, 1).send(1, 2, 2).recv(2, 1, 2);
    }

    private static void assertOnlyError(Schedule s, String fragment) {
        List<String> errors = Verifier.verify(s);
        assertEquals(1, errors.size(), () -> "expected exactly one error, got " + errors);
        assertTrue(errors.get(0).contains(fragment), () -> errors.get(0));
    }

    @Test
    void acceptsAValidChain() {
        assertEquals(List.of(), Verifier.verify(chain().build()));
    }

    @Test
    void rejectsAMissingDelivery() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10).send(0, 1, 1).recv(1, 0, 1).build();
        assertOnlyError(s, "missing delivery: rank 2 never receives whole");
    }

    @Test
    void rejectsADoubleDelivery() {
        Schedule s = chain().send(0, 2, 2).recv(2, 0, 2).build();
        assertOnlyError(s, "double delivery: rank 2 receives whole 2 times");
    }

    @Test
    void rejectsADeliveryToTheRoot() {
        Schedule s = chain().send(2, 0, 3).recv(0, 2, 3).build();
        assertOnlyError(s, "unexpected delivery: rank 0 receives whole, which it already holds");
    }

    @Test
    void rejectsSendBeforeHold() {
        // Rank 1 forwards before it has received: program order matters.
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10)
                .send(0, 1, 1).send(1, 2, 2).recv(1, 0, 1).recv(2, 1, 2).build();
        assertOnlyError(s, "send before hold: rank 1 #0 (SEND whole -> 2 (step 2))");
    }

    @Test
    void rejectsAnUnmatchedSend() {
        Schedule s = chain().send(0, 2, 3).build();
        assertOnlyError(s, "unmatched send: rank 0 #1 (SEND whole -> 2 (step 3)) has no matching receive on rank 2");
    }

    @Test
    void rejectsAnUnmatchedReceive() {
        Schedule s = chain().recv(1, 2, 3).build();
        List<String> errors = Verifier.verify(s);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("unmatched receive: rank 1 #2")), errors::toString);
    }

    @Test
    void rejectsMismatchedBlocks() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 2, 0, 10).units(List.of(SEG0.get(0), SEG1.get(0)))
                .send(0, 1, 1, SEG0).send(0, 1, 2, SEG1).recv(1, 0, 1, SEG1).recv(1, 0, 2, SEG0).build();
        List<String> errors = Verifier.verify(s);
        assertEquals(2, errors.size(), errors::toString);
        assertTrue(errors.get(0).startsWith("mismatched blocks: rank 0 #0"), errors::toString);
    }

    /** A hand-edited bcast that combined or moved the root's bytes passed and ran with wrong data (a user's trial). */
    @Test
    void rejectsLocalOperationsThatChangeWhereTheRootsBytesLand() {
        Schedule reduced = chain().reduce(2, 3, io.mpirunj.Op.SUM, new Block.Range(Block.Role.RECV, 0, 10),
                new Block.Range(Block.Role.RECV, 0, 10)).build();
        assertOnlyError(reduced, "rank 2 #1 (" + reduced.program(2).get(1) + "): a reduce has no place in a multicast"
                + " (it would change the root's data)");
        Schedule shifted = chain().copy(2, 3, new Block.Range(Block.Role.RECV, 0, 5),
                new Block.Range(Block.Role.RECV, 5, 5)).build();
        assertOnlyError(shifted, "rank 2 #1 (" + shifted.program(2).get(1) + "): a copy in a multicast must keep the"
                + " root's bytes at their offsets (this one moves recv[0,5) to recv[5,10))");
        Schedule kept = chain().copy(2, 3, new Block.Range(Block.Role.RECV, 0, 5),
                new Block.Range(Block.Role.SCRATCH, 0, 5)).build();
        assertEquals(List.of(), Verifier.verify(kept));
    }

    @Test
    void rejectsADeadlock() {
        List<String> errors = Verifier.verify(HandSchedules.crossedForwarding(false));
        assertTrue(errors.contains("deadlock: rank 1 #2 (SEND [5,10) -> 3 (step 3)) can never start"), errors::toString);
        assertTrue(errors.stream().allMatch(e -> e.startsWith("deadlock: ")), errors::toString);
        assertEquals(List.of(), Verifier.verify(HandSchedules.crossedForwarding(true)));
    }

    @Test
    void rejectsASendToSelfAndSegmentsPastTheBuffer() {
        Schedule self = chain().send(2, 2, 3).recv(2, 2, 3).build();
        assertTrue(Verifier.verify(self).stream().anyMatch(e -> e.contains("names its own rank")));
        Schedule past = Schedule.builder(Collective.MULTICAST, "hand", 2, 0, 10)
                .send(0, 1, 1, List.of(new Block.Segment(8, 5))).recv(1, 0, 1, List.of(new Block.Segment(8, 5))).build();
        assertTrue(Verifier.verify(past).stream().anyMatch(e -> e.contains("ends past the buffer")));
    }

    @Test
    void rejectsUnitsThatDoNotTileTheBuffer() {
        Schedule gap = Schedule.builder(Collective.MULTICAST, "hand", 1, 0, 10)
                .units(List.of(new Block.Segment(0, 4), new Block.Segment(5, 5))).build();
        assertOnlyError(gap, "do not tile [0,10)");
        Schedule shortUnits = Schedule.builder(Collective.MULTICAST, "hand", 1, 0, 10)
                .units(List.of(new Block.Segment(0, 4))).build();
        assertOnlyError(shortUnits, "end at 4 (expected: 10)");
    }

    @Test
    void acceptsSegmentsForwardedFromAWholeBufferRoot() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10).units(List.of(SEG0.get(0), SEG1.get(0)))
                .send(0, 1, 1, SEG0).send(0, 1, 2, SEG1)
                .recv(1, 0, 1, SEG0).send(1, 2, 2, SEG0).recv(1, 0, 2, SEG1).send(1, 2, 3, SEG1)
                .recv(2, 1, 2, SEG0).recv(2, 1, 3, SEG1).build();
        assertEquals(List.of(), Verifier.verify(s));
    }

    @Test
    void countsAReceiveFirstOfAsOneDelivery() {
        // TTCC shape: rank 2 takes the first of the copies from 0 and 1.
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10)
                .send(0, 1, 1).send(0, 2, 2)
                .recv(1, 0, 1).send(1, 2, 2)
                .recvFirstOf(2, new int[] {0, 1}, 2, Block.WHOLE_ONLY).build();
        assertEquals(List.of(), Verifier.verify(s));
    }

    @Test
    void rejectsAReceiveFirstOfWhoseSecondParentNeverSends() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10)
                .send(0, 1, 1).send(0, 2, 2).recv(1, 0, 1)
                .recvFirstOf(2, new int[] {0, 1}, 2, Block.WHOLE_ONLY).build();
        assertOnlyError(s, "unmatched receive: rank 2 #0");
    }

    @Test
    void rejectsAReceiveFirstOfPlusAPlainReceiveOfTheSameData() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 0, 10)
                .send(0, 1, 1).send(0, 2, 2).send(0, 2, 3)
                .recv(1, 0, 1).send(1, 2, 2)
                .recvFirstOf(2, new int[] {0, 1}, 2, Block.WHOLE_ONLY).recv(2, 0, 3).build();
        assertOnlyError(s, "double delivery: rank 2 receives whole 2 times");
    }

    @Test
    void acceptsADirectAllToAllAndCombinedMessages() {
        assertEquals(List.of(), Verifier.verify(AlltoallBuilders.pairwise(3, 8, null)));

        // Store-and-forward with a combined message: 0 sends (0->2) and (0->1) to 1, which forwards (0->2).
        Schedule relay = Schedule.builder(Collective.ALLTOALL, "relay", 3, -1, 8)
                .send(0, 1, 1, List.of(new Block.Pair(0, 1), new Block.Pair(0, 2)))
                .recv(1, 0, 1, List.of(new Block.Pair(0, 1), new Block.Pair(0, 2)))
                .send(1, 2, 2, List.of(new Block.Pair(0, 2), new Block.Pair(1, 2)))
                .recv(2, 1, 2, List.of(new Block.Pair(0, 2), new Block.Pair(1, 2)))
                .send(1, 0, 1, List.of(new Block.Pair(1, 0))).recv(0, 1, 1, List.of(new Block.Pair(1, 0)))
                .send(2, 0, 1, List.of(new Block.Pair(2, 0))).recv(0, 2, 1, List.of(new Block.Pair(2, 0)))
                .send(2, 1, 1, List.of(new Block.Pair(2, 1))).recv(1, 2, 1, List.of(new Block.Pair(2, 1)))
                .copyOwnPairBlocks().build();
        assertEquals(List.of(), Verifier.verify(relay));
    }

    @Test
    void rejectsForwardingSomeoneElsesAllToAllBlockBeforeHavingIt() {
        Schedule s = Schedule.builder(Collective.ALLTOALL, "bad", 2, -1, 8)
                .send(0, 1, 1, List.of(new Block.Pair(1, 0))).recv(1, 0, 1, List.of(new Block.Pair(1, 0)))
                .build();
        List<String> errors = Verifier.verify(s);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("send before hold: rank 0")), errors::toString);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("missing delivery: rank 0 never receives (1->0)")), errors::toString);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("missing delivery: rank 1 never receives (0->1)")), errors::toString);
    }

    /**
     * A new user's hand-written all-to-alls that passed and ran with wrong data, status 0: a rank's own block never
     * copied, a copy of another block onto it, and a copy onto another of the rank's own blocks (its send buffer).
     */
    @Test
    void rejectsAnAllToAllWhoseOwnBlockIsNotCopiedOrIsCopiedWrong() {
        Block.Pair own0 = new Block.Pair(0, 0);
        Block.Pair own1 = new Block.Pair(1, 1);
        java.util.function.Function<java.util.function.UnaryOperator<Schedule.Builder>, List<String>> direct = copies ->
                Verifier.verify(copies.apply(Schedule.builder(Collective.ALLTOALL, "hand", 2, -1, 8)
                        .send(0, 1, 1, List.of(new Block.Pair(0, 1))).recv(1, 0, 1, List.of(new Block.Pair(0, 1)))
                        .send(1, 0, 1, List.of(new Block.Pair(1, 0))).recv(0, 1, 1, List.of(new Block.Pair(1, 0))))
                        .build());
        assertEquals(List.of(), direct.apply(b -> b.copy(0, 0, own0, own0).copy(1, 0, own1, own1)));
        assertEquals(List.of("missing delivery: rank 0 never copies its own block (0->0) into its receive buffer"),
                direct.apply(b -> b.copy(1, 0, own1, own1)));
        assertEquals(List.of("double delivery: rank 0 copies 2 times its own block (0->0) into its receive buffer"),
                direct.apply(b -> b.copy(0, 0, own0, own0).copy(0, 0, own0, own0).copy(1, 0, own1, own1)));
        List<String> wrongSource = direct.apply(b -> b.copy(0, 0, new Block.Pair(0, 1), own0).copy(1, 0, own1, own1));
        assertTrue(wrongSource.contains("rank 0 #2 (COPY (0->1) -> (0->0) (step 0)): a copy in an alltoall moves a block "
                + "to where it belongs, not onto another (this one writes (0->1) into (0->0))"), wrongSource::toString);
        List<String> ontoSend = direct.apply(b -> b.copy(0, 0, own0, new Block.Pair(0, 1)).copy(1, 0, own1, own1));
        assertTrue(ontoSend.contains("rank 0 #2 (COPY (0->0) -> (0->1) (step 0)): writes into rank 0's send buffer "
                + "((0->1))"), ontoSend::toString);
    }

    @Test
    void checkThrowsWithTheListOfErrors() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 2, 0, 10).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Verifier.check(s));
        assertTrue(e.getMessage().contains("missing delivery: rank 1"), e.getMessage());
    }

    @Test
    void capsTheNumberOfListedErrors() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 200, 0, 10).build();
        List<String> errors = Verifier.verify(s);
        assertEquals(ProgramAnalysis.MAX_ERRORS + 1, errors.size());
        assertEquals("... and " + (199 - ProgramAnalysis.MAX_ERRORS) + " more", errors.get(errors.size() - 1));
    }
}
