package mpi;

import java.util.Arrays;

/**
 * The reductions this package computes itself, for what the runtime's reduction operators do not
 * cover (MINLOC/MAXLOC, user functions, char and short data, complex products): the runtime moves
 * every rank's little-endian byte image (gather, allgather or alltoallv, blocking or not), then the
 * images are folded here in rank order, so a non-commutative user function is right.
 */
final class Reduce {
    private Reduce() {
    }

    /**
     * {@code x[from] op x[from + 1] op ... op x[to - 1]} of the images laid end to end in {@code all},
     * {@code blockBytes} each ({@code count} elements of {@code type}); {@code from < to}. {@code nio}
     * says whether a user function gets byte buffers (the call's buffers were NIO buffers) or arrays.
     */
    static byte[] fold(byte[] all, int blockBytes, int from, int to, Op op, Datatype type, int count, boolean nio) {
        byte[] acc = Arrays.copyOfRange(all, (to - 1) * blockBytes, to * blockBytes);
        for (int r = to - 2; r >= from; r--) { // acc = x[r] op acc: lower ranks stay on the left
            byte[] in = Arrays.copyOfRange(all, r * blockBytes, (r + 1) * blockBytes);
            Combiner.combine(op, type, in, acc, count, nio);
        }
        return acc;
    }
}
