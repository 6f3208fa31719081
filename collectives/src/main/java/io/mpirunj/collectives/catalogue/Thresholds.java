package io.mpirunj.collectives.catalogue;

import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.List;

/**
 * Built-in size/rank-count thresholds, consulted after a rules file and {@code auto} and before the
 * default (Open MPI's "fixed" decision). Each rule names the measurement behind it. A rule goes in only
 * where one algorithm beat the default clearly and in every sweep we ran (processes and threads); where
 * the winner changed from sweep to sweep on this 2-core machine, the default stays.
 */
final class Thresholds {
    static final List<CollRules.Rule> RULES = List.of(
            // alltoall, blocks of 8 KiB and more on up to 8 ranks: linear (every send and receive posted at once)
            // beat pairwise, the default, in 15 of 16 cells (np 8: 1.4-1.7x at 8 KiB-1 MiB; np 4: 0.89-3.5x) as
            // processes in `bench osu_alltoall -np 4,8 --coll alltoall=all -m 1:1048576 -i 30 -f` (2026-11-24 17:55
            // UTC, p50s) and was the fastest at np 4 and 8 as threads (benchmarks/rules/dev-machine-threads.json). Below 8 KiB the winner moved between pairwise,
            // linear and bruck from run to run; beyond 8 ranks nothing was measured, and pairwise bounds the messages
            // in flight, which matters on a real network.
            new CollRules.Rule(CollectiveOp.ALLTOALL, 2, 8, 8192, Long.MAX_VALUE, "linear", 0,
                    "built-in threshold: alltoall blocks >= 8 KiB on <= 8 ranks (measured: benchmarks/README.md,"
                            + " \"Built-in thresholds\")"));

    private Thresholds() {
    }
}
