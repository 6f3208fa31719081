package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Rank 0's {@link System#nanoTime()} as seen from every rank, so times taken on different ranks can
 * be compared (the "last rank done" column).
 *
 * <p>Ranks on one host (same Linux boot id: ranks as threads, or processes of one machine, where
 * {@code nanoTime} is the system-wide CLOCK_MONOTONIC) share the clock and need no correction. Else
 * each rank's offset from rank 0 is estimated as SKaMPI and ReproMPI do: {@value #PING_PONGS}
 * ping-pongs, and from the one with the shortest round trip, offset = remote time minus the midpoint
 * of the round trip; the error is at most half that round trip ({@link #maxErrorNs}).
 *
 * @param offsetNs   this rank's clock minus rank 0's
 * @param shared     true when every rank reads the same clock (one host)
 * @param maxErrorNs the worst bound on the offset error over the ranks (0 when shared)
 */
record GlobalClock(long offsetNs, boolean shared, long maxErrorNs) {
    static final int PING_PONGS = 50;
    private static final int ID_BYTES = 64;
    private static final int TAG = 7;

    /** Measures the offsets. Collective over {@code comm}, which should carry no other traffic. */
    static GlobalClock sync(Comm comm) {
        byte[] id = Arrays.copyOf(hostClockId().getBytes(StandardCharsets.UTF_8), ID_BYTES);
        byte[] all = new byte[ID_BYTES * comm.size()];
        comm.gather(Buffer.of(id), Buffer.of(all), 0);
        int[] flag = new int[1];
        if (comm.rank() == 0) {
            boolean same = id[0] != 0;
            for (int r = 1; r < comm.size() && same; r++) {
                same = Arrays.equals(all, r * ID_BYTES, (r + 1) * ID_BYTES, id, 0, ID_BYTES);
            }
            flag[0] = same ? 1 : 0;
        }
        comm.bcast(Buffer.of(flag), 0);
        if (flag[0] == 1) {
            return new GlobalClock(0, true, 0);
        }
        long[] mine = new long[2]; // offset, max error (rank 0 tells every rank its own)
        long worstError = 0;
        long[] msg = new long[1];
        for (int r = 1; r < comm.size(); r++) {
            if (comm.rank() == 0) {
                long bestRtt = Long.MAX_VALUE;
                long bestOffset = 0;
                for (int i = 0; i < PING_PONGS; i++) {
                    long t0 = System.nanoTime();
                    comm.send(Buffer.of(msg), r, TAG);
                    comm.recv(Buffer.of(msg), r, TAG);
                    long t1 = System.nanoTime();
                    if (t1 - t0 < bestRtt) {
                        bestRtt = t1 - t0;
                        bestOffset = msg[0] - (t0 + (t1 - t0) / 2);
                    }
                }
                worstError = Math.max(worstError, bestRtt / 2);
                comm.send(Buffer.of(new long[] {bestOffset, bestRtt / 2}), r, TAG);
            } else if (comm.rank() == r) {
                for (int i = 0; i < PING_PONGS; i++) {
                    comm.recv(Buffer.of(msg), 0, TAG);
                    msg[0] = System.nanoTime();
                    comm.send(Buffer.of(msg), 0, TAG);
                }
                comm.recv(Buffer.of(mine), 0, TAG);
            }
        }
        long[] err = {comm.rank() == 0 ? worstError : 0};
        comm.bcast(Buffer.of(err), 0);
        return new GlobalClock(mine[0], false, err[0]);
    }

    /** What identifies a shared monotonic clock: the kernel's boot id, or "" when unknown. */
    private static String hostClockId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** This rank's local time converted to rank 0's clock. */
    long toGlobal(long localNs) {
        return localNs - offsetNs;
    }

    String describe() {
        return shared ? "clock shared (one host)"
                : String.format(java.util.Locale.ROOT, "clock offsets by ping-pong (error <= %.2f us)", maxErrorNs / 1e3);
    }
}
