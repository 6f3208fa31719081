package io.mpirunj.launcher.calibrate;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.benchmarks.JitQuiet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SPMD program {@code mpirun-j calibrate} runs as a job (threads or processes, on TCP, in-JVM or an
 * emulated fabric). Every time is read with {@code Comm.wtimeNs} (on an emulated fabric: model time x
 * the time scale). Rank 0 prints one line {@value #PREFIX}{@code {json}} with the raw times in ns, each the
 * median (or the minimum) over the repetitions:
 * <ul>
 *   <li>t_end(m): ping-pong between ranks 0 and 1, half a round trip;</li>
 *   <li>t_hold(m), the Nupairoj–Ni way: rank 0 sends m bytes back to back to ranks 1..j (distinct
 *       receivers, so no receiver is the bottleneck) and the last one answers with an empty message:
 *       T(j) = (j-1)·t_hold + t_end(m) + t_end(0), so t_hold = (T(k) - T(1)) / (k - 1);</li>
 *   <li>the send overhead o: the time rank 0 spends in one empty {@code isend};</li>
 *   <li>with {@code --pairs S,L}: a ping-pong between every pair at S and L bytes, one pair at a time.</li>
 * </ul>
 * Before the timed measurements, untimed passes over all of them ({@value #WARMUP_REPS} repetitions each)
 * run while any rank's JIT still compiles, at most {@code WARMUP} passes: cold ranks run interpreted code,
 * which at -np 8 on 2 cores made a 1 KiB ping-pong 240-330 µs instead of ~20 µs.
 * Arguments: {@code SIZES REPS K median|min WARMUP [PAIR_SMALL PAIR_LARGE]}.
 */
public final class CalibrationProgram {
    static final String PREFIX = "CALIBRATION ";
    private static final int TAG = 77;
    /** Repetitions of each measurement in a JIT warm-up pass. */
    static final int WARMUP_REPS = 3;

    private CalibrationProgram() {
    }

    public static void main(String[] args) throws Exception {
        Comm world = Mpi.init(args);
        long[] sizes = Arrays.stream(args[0].split(",")).mapToLong(Long::parseLong).toArray();
        int reps = Integer.parseInt(args[1]);
        int k = Math.min(Integer.parseInt(args[2]), world.size() - 1);
        useMinimum = args[3].equals("min");
        int warmupPasses = Integer.parseInt(args[4]);
        if (warmupPasses > 0) {
            int[] passes = {0};
            JitQuiet.untilQuiet(world, () -> measure(world, sizes, WARMUP_REPS, k, new ArrayList<>(), new ArrayList<>()),
                    compiled -> compiled && ++passes[0] < warmupPasses);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        List<Double> tEnd = new ArrayList<>();
        List<Double> tHold = new ArrayList<>();
        measure(world, sizes, reps, k, tEnd, tHold);
        out.put("sizes", sizes);
        out.put("tEndNs", tEnd);
        out.put("tHoldNs", tHold);
        out.put("overheadNs", overhead(world, reps));
        if (args.length >= 7) {
            int small = Integer.parseInt(args[5]);
            int large = Integer.parseInt(args[6]);
            int n = world.size();
            // each pair is measured by its lower rank; the sums over ranks gather the matrices at every rank
            double[] ts = new double[n * n];
            double[] tl = new double[n * n];
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    world.barrier();
                    double s = pingPong(world, a, b, small, reps);
                    double l = pingPong(world, a, b, large, reps);
                    if (world.rank() == a) {
                        ts[a * n + b] = ts[b * n + a] = s;
                        tl[a * n + b] = tl[b * n + a] = l;
                    }
                }
            }
            double[] sumS = new double[n * n];
            double[] sumL = new double[n * n];
            world.allreduce(Buffer.of(ts), Buffer.of(sumS), Op.SUM);
            world.allreduce(Buffer.of(tl), Buffer.of(sumL), Op.SUM);
            out.put("pairSmallNs", square(sumS, n));
            out.put("pairLargeNs", square(sumL, n));
            out.put("pairSmall", small);
            out.put("pairLarge", large);
        }
        if (world.rank() == 0) {
            System.out.println(PREFIX + new ObjectMapper().writeValueAsString(out));
        }
        Mpi.finish();
    }

    /** t_end and t_hold at each size, {@code reps} repetitions each, added to the lists (rank 0's; NaN elsewhere). */
    private static void measure(Comm world, long[] sizes, int reps, int k, List<Double> tEnd, List<Double> tHold) {
        for (long m : sizes) {
            double end = pingPong(world, 0, 1, (int) m, reps);
            double t1 = backToBack(world, (int) m, 1, reps);
            double tk = backToBack(world, (int) m, k, reps);
            tEnd.add(end);
            tHold.add(k > 1 ? (tk - t1) / (k - 1) : Double.NaN);
        }
    }

    /** Median over {@code reps} (after one warm-up) of half a round trip of {@code m} bytes between a and b. */
    static double pingPong(Comm world, int a, int b, int m, int reps) {
        int me = world.rank();
        if (me != a && me != b) {
            return Double.NaN;
        }
        byte[] buf = new byte[m];
        double[] samples = new double[reps];
        for (int r = -1; r < reps; r++) {
            if (me == a) {
                long t0 = world.wtimeNs();
                world.send(Buffer.of(buf), b, TAG);
                world.recv(Buffer.of(buf), b, TAG);
                if (r >= 0) {
                    samples[r] = (world.wtimeNs() - t0) / 2.0;
                }
            } else {
                world.recv(Buffer.of(buf), a, TAG);
                world.send(Buffer.of(buf), a, TAG);
            }
        }
        return me == a ? summary(samples) : Double.NaN;
    }

    /**
     * Median T(j): rank 0 sends m bytes to ranks 1..j back to back, rank j answers with an empty message.
     * One barrier starts the warm-up round; each later round starts when rank 0 has the previous answer,
     * so nothing else is in flight. (Not a barrier per round: rank 0 can leave a barrier while other
     * ranks' last barrier messages still cross the fabric on the channels its sends need; on the emulated
     * mesh:4x4 at np 8 that added 16-24 % to t_hold at 1 KB.)
     */
    static double backToBack(Comm world, int m, int j, int reps) {
        int me = world.rank();
        byte[] buf = new byte[m];
        byte[] ack = new byte[0];
        double[] samples = new double[reps];
        world.barrier();
        for (int r = -1; r < reps; r++) {
            if (me == 0) {
                long t0 = world.wtimeNs();
                Request[] sends = new Request[j];
                for (int i = 1; i <= j; i++) {
                    sends[i - 1] = world.isend(Buffer.of(buf), i, TAG);
                }
                world.recv(Buffer.of(ack), j, TAG);
                if (r >= 0) {
                    samples[r] = world.wtimeNs() - t0;
                }
                Request.waitAll(sends);
            } else if (me <= j) {
                world.recv(Buffer.of(buf), 0, TAG);
                if (me == j) {
                    world.send(Buffer.of(ack), 0, TAG);
                }
            }
        }
        return me == 0 ? summary(samples) : Double.NaN;
    }

    /** Median time rank 0 spends in one empty isend to rank 1. */
    static double overhead(Comm world, int reps) {
        int n = Math.max(10, reps * 10);
        world.barrier();
        byte[] none = new byte[0];
        if (world.rank() == 0) {
            double[] samples = new double[n];
            Request[] sends = new Request[n];
            for (int i = 0; i < n; i++) {
                long t0 = world.wtimeNs();
                sends[i] = world.isend(Buffer.of(none), 1, TAG + 2);
                samples[i] = world.wtimeNs() - t0;
            }
            Request.waitAll(sends);
            return median(samples);
        }
        if (world.rank() == 1) {
            for (int i = 0; i < n; i++) {
                world.recv(Buffer.of(none), 0, TAG + 2);
            }
        }
        return Double.NaN;
    }

    private static double[][] square(double[] flat, int n) {
        double[][] m = new double[n][n];
        for (int a = 0; a < n; a++) {
            System.arraycopy(flat, a * n, m[a], 0, n);
        }
        return m;
    }

    /** Summarise repetitions by their minimum instead of their median ({@code calibrate --statistic min}). */
    private static boolean useMinimum;

    private static double summary(double[] v) {
        return useMinimum ? Arrays.stream(v).min().orElse(Double.NaN) : median(v);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
