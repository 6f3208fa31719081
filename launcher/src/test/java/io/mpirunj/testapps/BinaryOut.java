package io.mpirunj.testapps;

import java.io.IOException;
import java.util.Random;

/**
 * Writes {@link #blob} (args: seed, size) to its stdout as raw bytes, no MPI: every byte value, invalid UTF-8, carriage
 * returns, lines longer than the launcher's 1 MiB bound. The launcher must pass it on byte for byte.
 */
public final class BinaryOut {
    private BinaryOut() {
    }

    /** {@code size} bytes from {@code seed}: random, a newline about every 64 KiB and a last one, then a line of 1.5 MiB. */
    public static byte[] blob(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        for (int i = 0; i < size; i++) {
            if (b[i] == '\n' && i < size / 2 && i % (1 << 16) != 0) {
                b[i] = (byte) 0xFF; // a newline every 64 KiB in the first half; the second half is one long line
            } else if (b[i] == '\n' && i >= size / 2) {
                b[i] = 0;
            }
        }
        b[size - 1] = '\n';
        return b;
    }

    public static void main(String[] args) throws IOException {
        System.out.write(blob(Long.parseLong(args[0]), Integer.parseInt(args[1])));
        System.out.flush();
    }
}
