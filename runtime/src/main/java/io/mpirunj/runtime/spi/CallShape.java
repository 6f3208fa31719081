package io.mpirunj.runtime.spi;

/**
 * What selection knows of a collective call, the same on every rank taking part.
 *
 * @param commSize the communicator's size
 * @param ranks    how many ranks take part (a multicast's group with its root; else {@code commSize})
 * @param bytes    the message size every rank agrees on (see {@link CollRules}), or -1 when there is none
 */
public record CallShape(int commSize, int ranks, long bytes) {
    /** A call on the whole communicator without an agreed size (barrier, the v-variants). */
    public static CallShape unsized(int commSize) {
        return new CallShape(commSize, commSize, -1);
    }

    public static CallShape of(int commSize, long bytes) {
        return new CallShape(commSize, commSize, bytes);
    }

    /**
     * The size class of {@code bytes}: the smallest power of two at least {@code bytes} (0 for 0, -1 when
     * unsized). Reports and {@code auto}'s cache group calls by it.
     */
    public static long sizeClass(long bytes) {
        if (bytes <= 0) {
            return bytes;
        }
        long c = Long.highestOneBit(bytes);
        return c == bytes ? c : c << 1;
    }

    /** Slots of {@link #sizeSlot}: one for calls without a size, one for 0 bytes, one per power of two up to 2^63. */
    public static final int SIZE_SLOTS = 66;

    /**
     * An index per size class, for tables read on every call: 0 without a size, 1 for 0 bytes, else
     * 2 + log2 of the size class.
     */
    public static int sizeSlot(long bytes) {
        return bytes < 0 ? 0 : bytes == 0 ? 1 : 2 + 64 - Long.numberOfLeadingZeros(bytes - 1);
    }
}
