package io.mpirunj.testapps;

import java.io.IOException;
import java.util.Random;

/**
 * Writes {@link #blob} (args: seed, size, and "open" for one without a final newline) to its stdout as raw bytes, no
 * MPI: every byte value, invalid UTF-8, carriage returns, lines longer than the launcher's 1 MiB bound. The launcher
 * must pass it on byte for byte.
 */
public final class BinaryOut {
    private BinaryOut() {
    }

    /**
     * {@code size} random bytes from {@code seed}: in the first half a newline every 64 KiB (and none between), the
     * second half one line; the last byte a newline unless {@code open}.
     */
    public static byte[] blob(long seed, int size, boolean open) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        for (int i = 0; i < size; i++) {
            if (i < size / 2 && i % (1 << 16) == 0 && i > 0) {
                b[i] = '\n';
            } else if (b[i] == '\n') {
                b[i] = 0;
            }
        }
        b[size - 1] = open ? (byte) 0xC3 : (byte) '\n'; // open: the lead byte of a character that never comes
        return b;
    }

    public static void main(String[] args) throws IOException {
        System.out.write(blob(Long.parseLong(args[0]), Integer.parseInt(args[1]), args.length > 2
                && args[2].equals("open")));
        System.out.flush();
    }
}
