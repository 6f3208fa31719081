package io.mpirunj.benchmarks.compat;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.benchmarks.JitQuiet;
import io.mpirunj.benchmarks.OsuFormat;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * The cost of package {@code mpi} (the Open MPI Java bindings API) over the {@code Comm} API it is built
 * on: a ping-pong between ranks 0 and 1 and a bcast from rank 0 to all, each written once against
 * each API. {@code mpirun-j -np N [--threads] -cp benchmarks/target/classes
 * io.mpirunj.benchmarks.compat.MpiOverhead [maxBytes [rounds [ping-pong|bcast|both]]]}.
 *
 * <p>Three loops run in every round: Comm, mpi, and Comm again (the control: what the noise alone
 * makes of a ratio). Their order rotates from round to round, so none always runs first or after the
 * same neighbour, and a change in the machine's load hits all three alike. Each round gives the
 * ratios mpi/Comm and Comm again/Comm of times measured seconds apart; a row reports the medians over
 * rounds of the times and of those paired ratios, and the spread (lower and upper quartile) of
 * mpi/Comm. The gap is real only where mpi/Comm stands out of the spread that the control shows. The
 * last column is what rank 0's thread allocates per operation through mpi beyond Comm (median over
 * rounds), which no load changes.
 *
 * <p>At np 1 only the bcast runs: it sends nothing, so it times what each API costs per call.
 */
public final class MpiOverhead {
    private static final int TAG = 7;
    private static final long WARM_UP_CALLS = 100_000;
    private static final long WARM_UP_NANOS = 2_000_000_000L;
    private static final long WARM_UP_LIMIT_NANOS = 60_000_000_000L;
    private static final int COMM = 0;
    private static final int MPI_API = 1;
    private static final int CONTROL = 2;

    private MpiOverhead() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Comm world = Mpi.world();
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        String what = args.length > 2 ? args[2] : "both";
        if (!what.equals("both") && !what.equals("ping-pong") && !what.equals("bcast")) {
            throw new IllegalArgumentException("MpiOverhead: what=" + what + " (expected: ping-pong, bcast or both)");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("MpiOverhead: rounds=" + rounds + " (expected: >= 1)");
        }
        int rank = world.rank();
        boolean pingPongToo = !what.equals("bcast") && world.size() >= 2;
        byte[] buf = new byte[max];
        if (rank == 0) {
            System.out.println("# mpi package overhead: the same loop against Comm, against mpi, and against Comm again");
            System.out.println("# np " + world.size() + ", " + rounds + " rounds in rotating order; medians over rounds "
                    + "of per-round means and of paired ratios; warm-up " + WARM_UP_CALLS + " calls of each loop, "
                    + WARM_UP_NANOS / 1_000_000_000 + " s a size, until the JIT is idle; " + OsuFormat.conditions());
        }
        for (String op : new String[] {"ping-pong (one-way)", "bcast"}) {
            boolean pingPong = op.startsWith("ping");
            if (pingPong ? !pingPongToo : what.equals("ping-pong")) {
                continue;
            }
            long calls = 0; // warm-up calls of each loop so far
            if (rank == 0) {
                System.out.println("# " + op);
                System.out.println(String.format("%-10s%12s%12s%10s%16s%14s%14s", "# Size", "Comm (us)", "mpi (us)",
                        "mpi/Comm", "(quartiles)", "control/Comm", "mpi-Comm B/op"));
            }
            for (int size : sizes(max)) {
                int iters = size >= 1 << 20 ? 20 : size >= 64 << 10 ? 200 : 2_000;
                calls = warmUp(world, buf, size, iters, pingPong, calls);
                double[][] t = new double[3][rounds];
                double[][] allocated = new double[3][rounds];
                for (int round = 0; round < rounds; round++) {
                    for (int k = 0; k < 3; k++) {
                        int variant = (round + k) % 3;
                        long before = allocatedBytes();
                        t[variant][round] = time(world, buf, size, iters, pingPong, variant);
                        allocated[variant][round] = (allocatedBytes() - before) / (double) iters;
                    }
                }
                if (rank == 0) {
                    double[] ratio = new double[rounds];
                    double[] control = new double[rounds];
                    double[] extraBytes = new double[rounds];
                    for (int round = 0; round < rounds; round++) {
                        ratio[round] = t[MPI_API][round] / t[COMM][round];
                        control[round] = t[CONTROL][round] / t[COMM][round];
                        extraBytes[round] = allocated[MPI_API][round] - allocated[COMM][round];
                    }
                    System.out.println(String.format(Locale.ROOT, "%-10d%12.3f%12.3f%10.3f%16s%14.3f%14.0f", size,
                            quantile(t[COMM], 0.5), quantile(t[MPI_API], 0.5), quantile(ratio, 0.5),
                            String.format(Locale.ROOT, "%.2f-%.2f", quantile(ratio, 0.25), quantile(ratio, 0.75)),
                            quantile(control, 0.5), quantile(extraBytes, 0.5)));
                }
            }
        }
        MPI.Finalize();
    }

    /**
     * Runs both loops by turns until each has made {@link #WARM_UP_CALLS} calls in this benchmark (far
     * past C2's compile thresholds), rank 0 has spent {@link #WARM_UP_NANOS} on this size, and no rank's
     * JIT compiler has compiled anything during the last turn, so that both paths run C2 code when a
     * round is timed. Cut short, on a loaded 2-core machine the C2 compiler threads fall behind, and the
     * loops run C1's profiling code, where every extra layer of a call costs far more than when compiled:
     * that, not the per-call work, was the mpi path's 25 % in an earlier version of this benchmark. After
     * {@link #WARM_UP_LIMIT_NANOS} it gives up and says so. Returns the warm-up calls of each loop so far.
     */
    private static long warmUp(Comm world, byte[] buf, int size, int iters, boolean pingPong, long calls) {
        long start = System.nanoTime();
        long[] made = {calls};
        boolean cut = JitQuiet.untilQuiet(world, () -> {
            time(world, buf, size, iters, pingPong, COMM);
            time(world, buf, size, iters, pingPong, MPI_API);
            made[0] += iters;
        }, compiled -> {
            long elapsed = System.nanoTime() - start;
            return elapsed < WARM_UP_LIMIT_NANOS && (made[0] < WARM_UP_CALLS || elapsed < WARM_UP_NANOS || compiled);
        });
        if (cut && world.rank() == 0) {
            System.out.println("# warm-up of size " + size + " cut at " + (System.nanoTime() - start) / 1_000_000_000
                    + " s with the JIT still compiling: this row may time unoptimised code");
        }
        return made[0];
    }

    private static int[] sizes(int max) {
        return Arrays.stream(new int[] {1, 1024, 64 << 10, 1 << 20}).filter(s -> s <= max).toArray();
    }

    /**
     * Bytes the calling thread (rank 0's) has allocated so far: what a loop allocates does not depend on
     * the machine's load, so the difference between the two APIs shows their per-call work exactly.
     */
    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** Microseconds per operation (one-way for the ping-pong), as rank 0 sees it. */
    private static double time(Comm world, byte[] buf, int size, int iters, boolean pingPong, int variant) {
        boolean viaMpi = variant == MPI_API;
        world.barrier();
        long start = System.nanoTime();
        if (pingPong) {
            if (viaMpi) {
                pingPongMpi(world.rank(), buf, size, iters);
            } else {
                pingPongComm(world, buf, size, iters);
            }
        } else {
            if (viaMpi) {
                bcastMpi(buf, size, iters);
            } else {
                bcastComm(world, buf, size, iters);
            }
            world.barrier();
        }
        double us = (System.nanoTime() - start) / 1e3 / iters;
        return pingPong ? us / 2 : us;
    }

    private static void bcastComm(Comm world, byte[] buf, int size, int iters) {
        for (int i = 0; i < iters; i++) {
            world.bcast(Buffer.of(buf, 0, size), 0);
        }
    }

    private static void bcastMpi(byte[] buf, int size, int iters) {
        for (int i = 0; i < iters; i++) {
            MPI.COMM_WORLD.bcast(buf, size, MPI.BYTE, 0);
        }
    }

    private static void pingPongComm(Comm world, byte[] buf, int size, int iters) {
        int rank = world.rank();
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                world.send(Buffer.of(buf, 0, size), 1, TAG);
                world.recv(Buffer.of(buf, 0, size), 1, TAG);
            } else if (rank == 1) {
                world.recv(Buffer.of(buf, 0, size), 0, TAG);
                world.send(Buffer.of(buf, 0, size), 0, TAG);
            }
        }
    }

    private static void pingPongMpi(int rank, byte[] buf, int size, int iters) {
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 1, TAG);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, TAG);
            }
        }
    }

    /** The {@code q}-quantile of {@code a} (linear between neighbours). */
    private static double quantile(double[] a, double q) {
        double[] s = a.clone();
        Arrays.sort(s);
        double pos = q * (s.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(s.length - 1, lo + 1);
        return s[lo] + (s[hi] - s[lo]) * (pos - lo);
    }
}
