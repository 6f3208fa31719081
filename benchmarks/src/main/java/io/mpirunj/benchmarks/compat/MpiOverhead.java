package io.mpirunj.benchmarks.compat;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.benchmarks.OsuFormat;
import java.util.Arrays;
import mpi.MPI;

/**
 * The cost of package {@code mpi} (the Open MPI Java bindings API) over the {@code Comm} API it is built
 * on: a ping-pong between ranks 0 and 1 and a bcast from rank 0 to all, each written once against
 * each API. {@code mpirun-j -np N [--threads] -cp benchmarks/target/classes
 * io.mpirunj.benchmarks.compat.MpiOverhead [maxBytes]}.
 *
 * <p>The two versions run in alternating rounds (Comm, mpi, Comm, mpi, ...), so a change in the
 * machine's load hits both alike; each row reports the median over rounds of the mean time per
 * operation, and the ratio mpi / Comm (1.00 = no overhead).
 */
public final class MpiOverhead {
    private static final int ROUNDS = 9;
    private static final int TAG = 7;

    private MpiOverhead() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Comm world = Mpi.world();
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int rank = world.rank();
        if (world.size() < 2) {
            throw new IllegalArgumentException("MpiOverhead needs at least 2 ranks (got " + world.size() + ")");
        }
        byte[] buf = new byte[max];
        if (rank == 0) {
            System.out.println("# mpi package overhead: the same loop against Comm and against mpi, alternating rounds");
            System.out.println("# np " + world.size() + ", " + ROUNDS + " rounds, median of per-round means; "
                    + OsuFormat.conditions());
        }
        for (String what : new String[] {"ping-pong (one-way)", "bcast"}) {
            boolean pingPong = what.startsWith("ping");
            if (rank == 0) {
                System.out.println("# " + what);
                System.out.println(String.format("%-10s%16s%16s%10s", "# Size", "Comm (us)", "mpi (us)", "mpi/Comm"));
            }
            for (int size : sizes(max)) {
                int iters = size >= 1 << 20 ? 20 : size >= 64 << 10 ? 200 : 2_000;
                measure(world, buf, size, iters / 4, pingPong); // warm-up of both versions
                double[] comm = new double[ROUNDS];
                double[] mpi = new double[ROUNDS];
                for (int round = 0; round < ROUNDS; round++) {
                    comm[round] = time(world, buf, size, iters, pingPong, false);
                    mpi[round] = time(world, buf, size, iters, pingPong, true);
                }
                if (rank == 0) {
                    double c = median(comm);
                    double m = median(mpi);
                    System.out.println(String.format("%-10d%16.2f%16.2f%10.3f", size, c, m, m / c));
                }
            }
        }
        MPI.Finalize();
    }

    private static int[] sizes(int max) {
        return Arrays.stream(new int[] {1, 1024, 64 << 10, 1 << 20}).filter(s -> s <= max).toArray();
    }

    private static void measure(Comm world, byte[] buf, int size, int iters, boolean pingPong) {
        time(world, buf, size, iters, pingPong, false);
        time(world, buf, size, iters, pingPong, true);
    }

    /** Microseconds per operation (one-way for the ping-pong), as rank 0 sees it. */
    private static double time(Comm world, byte[] buf, int size, int iters, boolean pingPong, boolean viaMpi) {
        world.barrier();
        long start = System.nanoTime();
        if (pingPong) {
            if (viaMpi) {
                pingPongMpi(world.rank(), buf, size, iters);
            } else {
                pingPongComm(world, buf, size, iters);
            }
        } else {
            for (int i = 0; i < iters; i++) {
                if (viaMpi) {
                    MPI.COMM_WORLD.bcast(buf, size, MPI.BYTE, 0);
                } else {
                    world.bcast(Buffer.of(buf, 0, size), 0);
                }
            }
            world.barrier();
        }
        double us = (System.nanoTime() - start) / 1e3 / iters;
        return pingPong ? us / 2 : us;
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

    private static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
