package io.mpirunj.collectives.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    @Test
    void builderCollectsProgramsInOrder() {
        Schedule s = Schedule.builder(Collective.MULTICAST, "hand", 3, 1, 100)
                .send(1, 0, 1).send(1, 2, 2).recv(0, 1, 1).recv(2, 1, 2).build();
        assertEquals(List.of(Instruction.send(0, Block.WHOLE_ONLY, 1), Instruction.send(2, Block.WHOLE_ONLY, 2)),
                s.program(1));
        assertEquals(4, s.instructionCount());
        assertEquals(List.of(Block.WHOLE), s.initialBlocks(1));
        assertEquals(List.of(), s.initialBlocks(0));
        assertEquals(List.of(Block.WHOLE), s.expectedBlocks(2));
        assertEquals(List.of(), s.expectedBlocks(1));
        assertEquals(100, s.bytes(Block.WHOLE_ONLY));
    }

    @Test
    void programsAreImmutable() {
        Schedule s = Schedule.builder(Collective.BCAST, "hand", 2, 0, 1).send(0, 1, 1).recv(1, 0, 1).build();
        assertThrows(UnsupportedOperationException.class, () -> s.program(0).clear());
    }

    @Test
    void builderRejectsOutOfRangeArguments() {
        assertThrows(IllegalArgumentException.class, () -> Schedule.builder(Collective.BCAST, "x", 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> Schedule.builder(Collective.BCAST, "x", 2, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> Schedule.builder(Collective.BCAST, "x", 2, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> Schedule.builder(Collective.ALLTOALL, "x", 2, 0, 1));
        Schedule.Builder b = Schedule.builder(Collective.BCAST, "x", 2, 0, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.send(0, 2, 1));
        assertEquals("peer=2 (expected: 0..1)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.recv(5, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> b.recvFirstOf(1, new int[0], 1, Block.WHOLE_ONLY));
        assertThrows(IllegalArgumentException.class, () -> b.send(0, 1, 1, List.of()));
    }

    @Test
    void allToAllRanksStartWithTheirOwnRowAndExpectTheirColumn() {
        Schedule s = Schedule.builder(Collective.ALLTOALL, "hand", 3, -1, 8).build();
        assertEquals(List.of(new Block.Pair(1, 0), new Block.Pair(1, 1), new Block.Pair(1, 2)), s.initialBlocks(1));
        assertEquals(List.of(new Block.Pair(0, 1), new Block.Pair(2, 1)), s.expectedBlocks(1));
        assertEquals(16, s.bytes(List.of(new Block.Pair(0, 1), new Block.Pair(2, 1))));
    }

    @Test
    void segmentsTileTheBufferWithTheRemainderUpFront() {
        List<Block> segments = Block.segments(10, 3);
        assertEquals(List.of(new Block.Segment(0, 4), new Block.Segment(4, 3), new Block.Segment(7, 3)), segments);
        assertThrows(IllegalArgumentException.class, () -> Block.segments(2, 3));
        assertThrows(IllegalArgumentException.class, () -> Block.segments(2, 0));
    }

    @Test
    void wholeCoversSegmentsButNotTheOtherWayRound() {
        Block segment = new Block.Segment(0, 4);
        assertTrue(Block.WHOLE.covers(segment));
        assertTrue(segment.covers(new Block.Segment(0, 4)));
        assertEquals(false, segment.covers(Block.WHOLE));
        assertEquals(false, Block.WHOLE.covers(new Block.Pair(0, 1)));
    }

    @Test
    void relabellingKeepsTheProgramsAndRejectsChangingRootedness() {
        Schedule multicast = Schedule.builder(Collective.MULTICAST, "x", 2, 0, 1).send(0, 1, 1).recv(1, 0, 1).build();
        Schedule bcast = multicast.withCollective(Collective.BCAST);
        assertEquals(Collective.BCAST, bcast.collective());
        assertSame(multicast.program(0), bcast.program(0));
        assertThrows(IllegalArgumentException.class, () -> multicast.withCollective(Collective.ALLTOALL));
    }

    @Test
    void runsLikeIgnoresNamesNotesAndStepsButNotWhatRunsOrItsOrder() {
        Schedule s = Schedule.builder(Collective.BCAST, "a", 3, 0, 8).send(0, 1, 1).send(0, 2, 2).recv(1, 0, 1)
                .recv(2, 0, 2).build();
        Schedule renamed = Schedule.builder(Collective.BCAST, "b", 3, 0, 8).note("another builder").send(0, 1, 1)
                .send(0, 2, 1).recv(1, 0, 1).recv(2, 0, 1).build();
        assertTrue(s.runsLike(renamed));
        assertTrue(renamed.runsLike(s));
        Schedule reordered = Schedule.builder(Collective.BCAST, "a", 3, 0, 8).send(0, 2, 1).send(0, 1, 2)
                .recv(1, 0, 2).recv(2, 0, 1).build();
        Schedule chain = Schedule.builder(Collective.BCAST, "a", 3, 0, 8).send(0, 1, 1).send(1, 2, 2).recv(1, 0, 1)
                .recv(2, 1, 2).build();
        Schedule bigger = Schedule.builder(Collective.BCAST, "a", 3, 0, 16).send(0, 1, 1).send(0, 2, 2)
                .recv(1, 0, 1).recv(2, 0, 2).build();
        assertEquals(false, s.runsLike(reordered));
        assertEquals(false, s.runsLike(chain));
        assertEquals(false, s.runsLike(bigger));
        assertEquals(false, s.runsLike(s.withCollective(Collective.MULTICAST)));
        assertEquals(false, Instruction.send(1, Block.WHOLE_ONLY, 1).equals(Instruction.send(1, Block.WHOLE_ONLY, 2)));
    }

    @Test
    void instructionsPrintReadably() {
        assertEquals("SEND whole -> 3 (step 2)", Instruction.send(3, Block.WHOLE_ONLY, 2).toString());
        assertEquals("RECV_FIRST_OF [0,4) <- {1,4} (step 1)",
                Instruction.recvFirstOf(new int[] {1, 4}, List.of(new Block.Segment(0, 4)), 1).toString());
    }
}
