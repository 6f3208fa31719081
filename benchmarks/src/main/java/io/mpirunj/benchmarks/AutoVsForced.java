package io.mpirunj.benchmarks;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bcast=auto} against every forced bcast algorithm in one job, in alternating rounds, so a change
 * in the machine's load hits all of them alike: {@code mpirun-j -np N [--model SPEC] -cp
 * benchmarks/target/classes io.mpirunj.benchmarks.AutoVsForced [SIZES [ALGOS [ROUNDS]]]} (sizes in bytes,
 * comma-separated; algorithms as {@code --coll bcast=} names; auto is added first unless listed). Each algorithm runs on its own communicator
 * ({@code Comm.withCollectives}); each round times every algorithm once, starting with a different one
 * each round. A time is OSU's: the mean over ranks of each rank's mean time per bcast from root 0.
 * Prints, per size, the median over rounds per algorithm (fastest first) and auto's ratio to the fastest
 * forced one. Run with {@code --coll-report} to see what auto chose per size class: the same algorithm
 * forced is then in the table, and the difference is auto's cost per call.
 */
public final class AutoVsForced {
    static final String DEFAULT_ALGOS = "binomial-p2p,linear-p2p,sequential,chain,binomial,binary-split,opt-tree,"
            + "fibonacci,chain-pipelined,binomial-segmented";

    private AutoVsForced() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "1024,65536,1048576").split(","))
                .mapToInt(Integer::parseInt).toArray();
        String algos = args.length > 1 && !args[1].isBlank() ? args[1] : DEFAULT_ALGOS;
        List<String> forced = List.of(algos.split(","));
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        List<String> names = new ArrayList<>(forced);
        if (!names.contains("auto")) {
            names.add(0, "auto");
        }
        List<Comm> comms = new ArrayList<>();
        for (String n : names) {
            comms.add(world.withCollectives("bcast=" + n));
        }
        byte[] buf = new byte[Arrays.stream(sizes).max().orElse(0)];
        if (world.rank() == 0) {
            System.out.println("# bcast=auto vs forced, np " + world.size() + ", " + rounds
                    + " alternating rounds, median of per-round OSU averages (us); " + OsuFormat.conditions());
        }
        for (int size : sizes) {
            int iters = size >= 1 << 20 ? 10 : size >= 64 << 10 ? 50 : 200;
            for (Comm c : comms) {
                time(c, buf, size, Math.max(2, iters / 5)); // warm-up; auto's first call of the size simulates
            }
            double[][] t = new double[names.size()][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < names.size(); k++) {
                    int a = (k + r) % names.size();
                    t[a][r] = time(comms.get(a), buf, size, iters);
                }
            }
            if (world.rank() == 0) {
                print(size, names, t);
            }
        }
        Mpi.finish();
    }

    /** OSU's average: the mean over ranks of each rank's mean time per bcast, in µs. */
    private static double time(Comm c, byte[] buf, int size, int iters) {
        c.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            c.bcast(Buffer.of(buf, 0, size), 0);
        }
        double[] mine = {(System.nanoTime() - start) / 1e3 / iters};
        double[] sum = new double[1];
        c.allreduce(Buffer.of(mine), Buffer.of(sum), Op.SUM);
        return sum[0] / c.size();
    }

    private static void print(int size, List<String> names, double[][] t) {
        record Row(String name, double median, double min) {
        }
        List<Row> rows = new ArrayList<>();
        for (int a = 0; a < names.size(); a++) {
            double[] s = t[a].clone();
            Arrays.sort(s);
            rows.add(new Row(names.get(a), s[s.length / 2], s[0]));
        }
        double auto = rows.stream().filter(r -> r.name().equals("auto")).mapToDouble(Row::median).min().orElse(Double.NaN);
        double best = rows.stream().filter(r -> !r.name().equals("auto")).mapToDouble(Row::median).min()
                .orElse(Double.NaN);
        String bestName = rows.stream().filter(r -> r.median() == best).findFirst().map(Row::name).orElse("?");
        rows.sort((x, y) -> Double.compare(x.median(), y.median()));
        System.out.printf("%n# size %d B: auto %.1f us, fastest forced %s %.1f us, auto / fastest = %.3f%n", size, auto,
                bestName, best, auto / best);
        System.out.printf("%-22s %12s %12s%n", "# algorithm", "median us", "min us");
        for (Row r : rows) {
            System.out.printf("%-22s %12.1f %12.1f%n", r.name(), r.median(), r.min());
        }
        System.out.flush();
    }
}
