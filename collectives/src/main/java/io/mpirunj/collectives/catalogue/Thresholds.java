package io.mpirunj.collectives.catalogue;

import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.List;

/**
 * Built-in size/rank-count thresholds, consulted after a rules file and {@code auto} and before the
 * default (Open MPI's "fixed" decision). Each rule names the measurement behind it. A rule goes in only
 * where one algorithm beat the default clearly in the sweeps we ran (processes and threads; for
 * {@link #THREAD_RULES} and {@link #PROCESS_RULES} in the one placement they hold for), and only over the sizes measured; each rule's comment names any cell it lost. Where the winner changed from sweep to sweep on
 * this 2-core machine, the default stays.
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
                            + " \"Built-in thresholds\")"),
            // allreduce, 8 ranks, 8 KiB and more: reduce-bcast (binomial reduce to rank 0, binomial bcast back) beat
            // recursive doubling, the default, at every size from 1 KiB to 1 MiB as processes (1.19-1.69x paired,
            // 90 % intervals clear of 1, six jobs) and from 8 KiB as threads (1.07-1.9x, two jobs; at 4 B-4 KiB
            // threads ran recursive doubling faster) in `bench osu_allreduce -np 8 --coll allreduce=A+B
            // --interleave` (2026-11-25 07:39-08:40 UTC). On 2 cores for 8 ranks what counts is the total work:
            // recursive doubling sends 24 whole vectors and combines 24, reduce-bcast sends 14 and combines 7.
            new CollRules.Rule(CollectiveOp.ALLREDUCE, 8, 8, 8192, Long.MAX_VALUE, "reduce-bcast", 0,
                    "built-in threshold: allreduce >= 8 KiB on 8 ranks (measured: benchmarks/README.md,"
                            + " \"Session 10: np 8 allreduce and bcast 1 MiB\")"),
            // allreduce, 8 ranks, up to 4 KiB (what was measured): linear-reduce-bcast (every rank sends to rank 0, rank 0 combines and
            // sends the result to all; no relaying rank) beat recursive doubling, the default, in every paired job:
            // processes 1.18-1.21x at 4 B (three jobs) and 1.13-1.45x at 4 B-4 KiB (two jobs, load 7-18); threads
            // fastest or tied in 25 of 27 cells at 4 B-1 KiB (three jobs; RD 1.11-1.16x faster in two), where
            // reduce-bcast was the slowest of the three
            // (`bench osu_allreduce -np 8 [--threads] --coll allreduce=recursive-doubling+reduce-bcast+
            // linear-reduce-bcast --interleave`, 2026-11-25 10:49-11:03 UTC; benchmarks/README.md, "Session 11:
            // warm before timing (warmbench)"). Its scratch, (p - 1) vectors at rank 0, is under 56 KiB here.
            new CollRules.Rule(CollectiveOp.ALLREDUCE, 8, 8, 0, 4096, "linear-reduce-bcast", 0,
                    "built-in threshold: allreduce <= 4 KiB on 8 ranks (measured: benchmarks/README.md,"
                            + " \"Session 11: warm before timing (warmbench)\")"),
            // allreduce, 4 ranks, 128 KiB and more: the same, 1.07-1.48x as processes (two jobs) and threads (one);
            // at 8-64 KiB the two tied as processes (paired 1.01-1.14), so the default stays there.
            new CollRules.Rule(CollectiveOp.ALLREDUCE, 4, 4, 131072, Long.MAX_VALUE, "reduce-bcast", 0,
                    "built-in threshold: allreduce >= 128 KiB on 4 ranks (measured: benchmarks/README.md,"
                            + " \"Session 10: np 8 allreduce and bcast 1 MiB\")"));

    /**
     * Where the ranks are threads of one JVM ({@link io.mpirunj.runtime.spi.CollectiveRegistry#forRankThreads}),
     * before the rules above. bcast up to 2 KiB on 8-32 ranks: the flat tree (linear-p2p), one hand-off to each
     * parked rank thread, where binomial-p2p passes the data down log2(p) hand-offs, each a thread woken onto a
     * busy core. Measured in paired, shuffled comparisons (bench --interleave), threads on 2 cores: binomial
     * 1.2-1.65x slower at 1 B-2 KiB at 8 ranks, 1.3-2.1x at 16, 1.5-2.1x at 32, in every run; at 4 ranks a tie
     * (benchmarks/README.md, "Session 10: threads bcast, flat tree against binomial (lead)").
     * Barrier on 8-32 ranks: linear (fan-in to rank 0, which releases each rank), where dissemination let rank 0
     * leave at any position (on average 126-237 us after the first rank, under load), and a bcast from it after the
     * barrier (OSU's loops) waited for its root to be scheduled behind the ranks that had left: osu_bcast np 8, 1 B,
     * 2.2-21x lower average in six alternating pairs under load; the barrier alone as fast or faster at 8, 16 and
     * 32 ranks (benchmarks/README.md, "Session 12: threads bcast 1 B (threads1b)").
     */
    static final List<CollRules.Rule> THREAD_RULES = List.of(
            new CollRules.Rule(CollectiveOp.BCAST, 8, 32, 0, 2048, "linear-p2p", 0,
                    "built-in threshold for rank threads: bcast <= 2 KiB on 8-32 ranks"),
            new CollRules.Rule(CollectiveOp.BARRIER, 8, 32, 0, Long.MAX_VALUE, "linear", 0,
                    "built-in threshold for rank threads: barrier on 8-32 ranks"));

    /**
     * Where the ranks are processes talking over sockets ({@link io.mpirunj.runtime.spi.CollectiveRegistry#forRankProcesses}),
     * before the rules above. alltoall blocks up to 128 B on 8 ranks: bruck (log2(p) rounds, 24 messages at np 8),
     * where pairwise sends 56: with 8 processes on 2 cores a small message costs tens of µs of CPU (system calls and
     * a wake-up on each side), so fewer messages win while the blocks are small enough that bruck's extra copying
     * does not count. Measured paired and shuffled (`bench osu_alltoall -np 8 --coll alltoall=pairwise+bruck[+linear]
     * --interleave -m 1:1024`): pairwise 1.08-1.17x bruck's time at 1-256 B, tied at 512 B-1 KiB (25 Nov 2026 16:40,
     * load 2-3); 1.09-1.30x at 1-128 B, bruck behind from 256 B (16:44, load 30) (benchmarks/README.md, "Session 13:
     * alltoall of small blocks as processes (lead)"). As threads pairwise was as fast or faster (session 6), so the
     * rule is for processes only.
     */
    static final List<CollRules.Rule> PROCESS_RULES = List.of(
            new CollRules.Rule(CollectiveOp.ALLTOALL, 8, 8, 0, 128, "bruck", 0,
                    "built-in threshold for rank processes: alltoall blocks <= 128 B on 8 ranks"));

    private Thresholds() {
    }
}
