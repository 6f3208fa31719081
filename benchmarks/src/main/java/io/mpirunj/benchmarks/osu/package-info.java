/**
 * OSU-style micro-benchmarks: {@code osu_latency}, {@code osu_bw}, {@code osu_bcast},
 * {@code osu_multicast}, {@code osu_alltoall}, {@code osu_barrier}, {@code osu_allreduce}, as SPMD
 * programs run under mpirun-j ({@code mpirun-j bench osu_bcast -np 8}, or
 * {@code mpirun-j -np 8 -cp CP io.mpirunj.benchmarks.osu.OsuBcast -m 1:4096 -f}).
 *
 * <h2>Output</h2>
 * Exactly the layout of the OSU Micro-Benchmarks 7.x ({@link io.mpirunj.benchmarks.osu.OsuTable}):
 * OSU's title line ({@code # OSU MPI Broadcast Latency Test v7.4}), its {@code # Datatype:} line,
 * its column header ({@code # Size       Avg Latency(us)}) and rows ({@code %-10d%18.2f}), so tools
 * that read OSU output read ours. One comment line is ours, right below the title:
 * {@code # mpirun-j: np 8, LocalTransport, bcast=binomial-p2p; warm-up ...; clock ...; java ...},
 * naming the conditions (rank count, transport, the algorithm chosen, warm-up, machine).
 *
 * <p>With {@code -f} the rows carry OSU's full columns first, exactly as OSU prints them (Min
 * Latency, Max Latency: the smallest and largest per-rank mean; Iterations), then three of ours:
 * <ul>
 *   <li><b>P50 Latency(us)</b>, <b>P99 Latency(us)</b>: nearest-rank percentiles of every timed
 *       call on every rank (osu_latency: of every one-way time, round trip / 2);</li>
 *   <li><b>Last-Rank Done(us)</b> (collectives): per iteration, the time from the start of the
 *       collective until the last rank returned from it, averaged over the iterations; the start is
 *       the root's call for bcast and multicast (the t_end of the papers' models), the last rank's
 *       call for alltoall, allreduce and barrier. OSU's Avg Latency is a mean of per-rank call times
 *       and so hides how long the whole operation took; this column is that time. Times on different
 *       ranks are put on rank 0's clock: shared on one host, else offsets measured by ping-pong.</li>
 * </ul>
 *
 * <h2>Defaults</h2>
 * OSU's: sizes 1 B..1 MiB for collectives (allreduce from 4 B: floats), 0 B..4 MiB for
 * osu_latency, 1 B..4 MiB for osu_bw; iterations/warm-up 1000/100 (collectives, up to 8 KiB) and
 * 100/10 above; 10000/100 and 1000/10 (osu_latency); 100/10 and 20/2 with a window of 64 (osu_bw).
 * Because a JVM runs interpreted code until the JIT has compiled it, every program first makes
 * {@code --jit-warmup N} untimed calls spread over all its sizes, the sizes taken in turn (default
 * 2000; 20000 for osu_latency; 0 turns it off), so OSU's short per-size warm-up measures compiled
 * code compiled for every size. Every program repeats those calls (up to 10 times) while any rank's
 * JIT still compiles, then every rank idles until its JIT is quiet, so that the first timed size does
 * not share the cores with the compiler. The collectives' passes also stop a dozen times for what happens between
 * timed sizes (the statistics, every rank idle a moment, calls of one size in a row), so the code the JIT compiles
 * has seen those paths and is not thrown away and recompiled while the first sizes are timed. After the idle wait the
 * collectives (not {@code --compare}/{@code --interleave}) and osu_latency rehearse (up to 3 rounds, until a round
 * compiles nothing): each small size's calls in a row in the timed order (the collectives then one more pass), then
 * the idle wait again, because an emptied compile queue lowers C2's thresholds and the
 * first timed calls crossed them (osu_alltoall np 8, 1 B: 482 µs with 413 ms of JIT while timed, 210-226 µs after
 * rehearsing, on a quiet machine). With {@code -f} rank 0
 * names on stderr any size during which some rank's JIT still compiled. {@code mpirun-j bench} runs process ranks on
 * the JVM's own compile thresholds, not the launcher's start-up ones.
 */
package io.mpirunj.benchmarks.osu;
