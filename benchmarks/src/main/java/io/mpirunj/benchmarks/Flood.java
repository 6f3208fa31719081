package io.mpirunj.benchmarks;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An unexpected-message flood (issue 9): rank 1 sends COUNT messages of BYTES bytes with blocking
 * sends while rank 0 sleeps SLEEP seconds before receiving any; rank 0 then checks every message's
 * content and order. Each rank prints its peak resident set size (VmHWM), which eager flow control
 * must keep bounded at both ends.
 *
 * <pre>./mpirun-j -np 2 -cp benchmarks/target/classes io.mpirunj.benchmarks.Flood [COUNT [BYTES [SLEEP]]]</pre>
 */
public final class Flood {
    private Flood() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 60 * 1024;
        int sleepSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Comm world = Mpi.init(args);
        if (world.size() != 2) {
            throw new IllegalArgumentException("np=" + world.size() + " (expected: 2)");
        }
        byte[] buf = new byte[bytes];
        long start = System.nanoTime();
        if (world.rank() == 1) {
            for (int k = 0; k < count; k++) {
                fill(buf, k);
                world.send(Buffer.of(buf), 0, 5);
            }
        } else {
            Thread.sleep(sleepSeconds * 1000L);
            byte[] expected = new byte[bytes];
            for (int k = 0; k < count; k++) {
                world.recv(Buffer.of(buf), 1, 5);
                fill(expected, k);
                if (!java.util.Arrays.equals(buf, expected)) {
                    throw new IllegalStateException("message " + k + " corrupted or out of order");
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("rank %d: %s %d x %d B in %.1f s, all intact; peak RSS %s, heap max %d MiB%n",
                world.rank(), world.rank() == 1 ? "sent" : "received", count, bytes, seconds, peakRss(),
                Runtime.getRuntime().maxMemory() >> 20);
        Mpi.finish();
    }

    private static void fill(byte[] b, int k) {
        if (b.length == 0) {
            return;
        }
        for (int i = 0; i < b.length; i += 8) {
            b[i] = (byte) (k + i);
        }
        b[b.length - 1] = (byte) k;
        b[0] = (byte) (k >>> 8);
    }

    /** VmHWM from /proc (Linux), else "n/a". */
    private static String peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return (kb >> 10) + " MiB";
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return "n/a";
    }
}
