package io.mpirunj.runtime.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.Selection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --coll-report}: per-rank counts, their wire form, and the table rank 0 prints. */
class CollReportTest {

    private static CollectiveAlgorithm.Bcast named(String name) {
        return new NamedBcast(name);
    }

    @Test
    void countsRoundTripAndAggregateAcrossRanks() {
        CollReport rank0 = new CollReport();
        Selection flat = new Selection(named("linear-p2p"), Selection.Source.RULES);
        Selection auto = new Selection(named("opt-tree"), Selection.Source.AUTO, 293.84, "model time");
        rank0.record(CollectiveOp.BCAST, 100, flat, 10_000);
        rank0.record(CollectiveOp.BCAST, 128, flat, 30_000);
        rank0.record(CollectiveOp.BCAST, 70_000, auto, 1_000_000);
        CollReport rank1 = new CollReport();
        rank1.record(CollectiveOp.BCAST, 100, flat, 60_000);
        rank1.record(CollectiveOp.BARRIER, -1, new Selection(named("dissemination"), Selection.Source.DEFAULT), 5_000);

        Map<CollReport.Key, CollReport.Totals> decoded = CollReport.decode(rank0.encode());
        assertEquals(rank0.snapshot(), decoded);
        assertEquals(new CollReport.Totals(2, 40_000),
                decoded.get(new CollReport.Key(CollectiveOp.BCAST, 128, "linear-p2p", "rules", Double.NaN, null)));

        String table = CollReport.format(List.of(decoded, CollReport.decode(rank1.encode())));
        List<String> lines = table.lines().toList();
        assertEquals(5, lines.size(), table);
        // 2 calls on rank 0, 1 on rank 1: calls = the most on one rank; mean over the 3 calls = 100/3 us;
        // slowest rank's mean = rank 1's 60 us
        assertEquals(List.of("barrier", "-", "dissemination", "default", "1", "1", "5.0", "5.0", "-"),
                List.of(lines.get(2).trim().split("\\s{2,}")));
        assertEquals(List.of("bcast", "<=128 B", "linear-p2p", "rules", "2", "2", "33.3", "60.0", "-"),
                List.of(lines.get(3).trim().split("\\s{2,}")));
        assertEquals(List.of("bcast", "<=128 KiB", "opt-tree", "auto", "1", "1", "1000.0", "1000.0",
                "293.840 model time"), List.of(lines.get(4).trim().split("\\s{2,}")));
    }
}
