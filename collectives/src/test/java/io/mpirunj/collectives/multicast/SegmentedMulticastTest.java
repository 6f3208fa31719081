package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentedMulticastTest {

    private static final CostModel SP = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");

    @Test
    void pipelinedChainMatchesItsClosedForm() {
        // Equal segments: (s - 1) * t_hold(m/s) + (k - 1) * t_end(m/s).
        int k = 9;
        int s = 16;
        long bytes = 16 * 4096;
        Schedule schedule = ChainPipelinedMulticast.build(k, 3, bytes, s);
        assertEquals(List.of(), Verifier.verify(schedule));
        assertEquals(s, schedule.units().size());
        double expected = (s - 1) * SP.tHold(4096) + (k - 1) * SP.tEnd(4096);
        assertEquals(expected, Simulator.event(schedule, SP).completion(), 1e-9);
    }

    @Test
    void largeMessagesArePipelinedAndBeatTheWholeMessageTrees() {
        long bytes = 1 << 20;
        int k = 32;
        Schedule chain = ChainPipelinedMulticast.build(k, 0, bytes, SP);
        Schedule binomial = BinomialSegmentedMulticast.build(k, 0, bytes, SP);
        assertTrue(chain.units().size() > 1, chain.note());
        assertTrue(binomial.units().size() > 1, binomial.note());
        double opt = Simulator.event(OptTreeMulticast.build(k, 0, bytes, SP), SP).completion();
        assertTrue(Simulator.event(chain, SP).completion() < opt);
        assertTrue(Simulator.event(binomial, SP).completion() < opt);
    }

    @Test
    void sizeIndependentCostsMakeOneSegmentBest() {
        CostModel flat = ModelSpec.parse("hold=20,end=55");
        assertEquals(Block.WHOLE_ONLY, ChainPipelinedMulticast.build(8, 0, 1 << 20, flat).units());
        assertEquals(Block.WHOLE_ONLY, BinomialSegmentedMulticast.build(8, 0, 1 << 20, flat).units());
    }

    /**
     * 8 ranks sharing 2 CPUs: every segment's 7 messages cost a shared CPU a t_hold at each end, so cutting
     * 1 MiB does not pay (it measured 1.4-2x slower than the whole-message chain there); each rank on its
     * own core, the same costs pipeline.
     */
    @Test
    void sharedCpusStopPipeliningThatOnlyOverlappingWouldPayFor() {
        CostModel ownCores = ModelSpec.parse("hold=9+0.000467m,end=10.5+0.000467m");
        CostModel twoCores = ModelSpec.parse("hold=9+0.000467m,end=10.5+0.000467m,cpus=2");
        assertTrue(ChainPipelinedMulticast.build(8, 0, 1 << 20, ownCores).units().size() > 1);
        assertEquals(Block.WHOLE_ONLY, ChainPipelinedMulticast.build(8, 0, 1 << 20, twoCores).units());
        assertEquals(Block.WHOLE_ONLY, BinomialSegmentedMulticast.build(8, 0, 1 << 20, twoCores).units());
        assertEquals(Block.WHOLE_ONLY, ChainPipelinedMulticast.build(8, 0, 65536, twoCores).units());
        // with a CPU per rank the work bound leaves room to pipeline again
        CostModel eightCpus = ModelSpec.parse("hold=9+0.000467m,end=10.5+0.000467m,cpus=8");
        assertTrue(ChainPipelinedMulticast.build(8, 0, 1 << 20, eightCpus).units().size() > 1);
    }

    @Test
    void tinyBuffersAreNotCutAndCountsAreChecked() {
        assertEquals(Block.WHOLE_ONLY, ChainPipelinedMulticast.build(8, 0, 1, SP).units());
        assertEquals(Block.WHOLE_ONLY, BinomialSegmentedMulticast.build(8, 0, 0, SP).units());
        assertThrows(IllegalArgumentException.class, () -> ChainPipelinedMulticast.build(4, 0, 3, 4));
        assertThrows(IllegalArgumentException.class, () -> BinomialSegmentedMulticast.build(4, 0, 3, 0));
    }

    @Test
    void withoutAUniformModelSegmentsAreTheDefaultSize() {
        Schedule s = ChainPipelinedMulticast.build(4, 0, 10 * Segmentation.DEFAULT_SEGMENT_BYTES, null);
        assertEquals(10, s.units().size());
    }

    @Test
    void segmentedBinomialForwardsEachSegmentToAllChildrenBeforeTheNext() {
        Schedule s = BinomialSegmentedMulticast.build(4, 0, 10, 2);
        assertEquals("[SEND [0,5) -> 2 (step 1), SEND [0,5) -> 1 (step 2), SEND [5,10) -> 2 (step 3), SEND [5,10) -> 1 (step 4)]",
                s.program(0).toString());
        assertEquals("[RECV [0,5) <- 0 (step 1), SEND [0,5) -> 3 (step 2), RECV [5,10) <- 0 (step 3), SEND [5,10) -> 3 (step 4)]",
                s.program(2).toString());
    }
}
