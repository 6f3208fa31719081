package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * osu_multicast (ours; MPI has no multicast, so OSU has no original): latency of
 * {@link Comm#multicast} from rank 0 to a group of {@code -g K} ranks spread evenly over
 * 1..np-1 (default: all of them), in osu_bcast's layout. Ranks outside the group only take part in
 * the barriers between iterations; the statistics cover the root and the group.
 */
public final class OsuMulticast {
    private OsuMulticast() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.MULTICAST, args, OsuMulticast::run);
    }

    /** The group: {@code k} ranks spread evenly over 1..np-1. */
    static int[] group(int np, Integer k) {
        int n = k == null ? np - 1 : k;
        if (n > np - 1) {
            throw new OsuOptions.UsageException("osu_multicast: -g " + n + " (expected: a group size from 1 to np-1 = "
                    + (np - 1) + ")");
        }
        int[] g = new int[n];
        for (int j = 0; j < n; j++) {
            g[j] = 1 + (int) ((long) j * (np - 1) / n);
        }
        return g;
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        OsuRun.requireTwoOrMore(world, o.benchmark());
        int[] group = group(world.size(), o.groupSize());
        boolean member = world.rank() == 0 || Arrays.binarySearch(group, world.rank()) >= 0;
        byte[] data = new byte[o.maxBytes()];
        Arrays.fill(data, (byte) 1);
        String g = group.length == world.size() - 1 ? "group: all " + group.length + " other ranks"
                : "group: " + group.length + " ranks " + Arrays.toString(group);
        CollectiveBench.run(world, o, out, member, g, (comm, size) -> {
            Buffer b = Buffer.of(data, 0, size);
            return () -> comm.multicast(b, 0, group);
        });
    }
}
