package io.mpirunj.collectives.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * A unit of data a message or local operation moves. Every block says where its bytes live on the
 * rank that executes the instruction (see {@link ProgramAnalysis#location}):
 * <ul>
 *   <li>{@link Whole} and {@link Segment}: bytes of a one-to-many collective's buffer, the
 *       {@linkplain Role#RECV receive buffer} (a bcast's one buffer is both send and receive buffer);</li>
 *   <li>{@link Pair}: the (origin, destination) block of an all-to-all: block {@code destination}
 *       of the origin's {@linkplain Role#SEND send buffer}, block {@code origin} of the destination's
 *       {@linkplain Role#RECV receive buffer}, and a scratch slot the analysis assigns on any rank it
 *       passes through (SEM's store-and-forward); its size is {@link Schedule#pairBytes(int, int)};</li>
 *   <li>{@link Range}: an explicit byte range of one of the executing rank's buffers, for
 *       gather/scatter/reduce style schedules whose blocks change place as they travel.</li>
 * </ul>
 * A message may carry several blocks (SEM combines several (origin, destination) blocks into one
 * message); its bytes are the blocks' bytes in the order listed.
 */
public sealed interface Block permits Block.Whole, Block.Span, Block.Pair {

    /** Which of a rank's buffers a block lives in. */
    enum Role {
        /** The caller's send buffer (valid from the start). */
        SEND,
        /** The caller's receive buffer (a one-to-many collective's one buffer). */
        RECV,
        /** Memory the runner allocates per execution (intermediate results, blocks in transit). */
        SCRATCH;

        /** Lower-case name used in exports. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The whole buffer. */
    Whole WHOLE = new Whole();

    /** The one-element list {@code [WHOLE]}, shared so whole-buffer schedules allocate no lists. */
    List<Block> WHOLE_ONLY = List.of(WHOLE);

    /** Size in bytes; {@code unitBytes} is the buffer size (bcast/multicast) or block size (all-to-all). */
    long bytes(long unitBytes);

    /** True when holding this block means holding {@code other}: equal, or the whole buffer covers any segment. */
    default boolean covers(Block other) {
        return equals(other) || (this instanceof Whole && other instanceof Segment);
    }

    /** The whole buffer. */
    record Whole() implements Block {
        @Override
        public long bytes(long unitBytes) {
            return unitBytes;
        }

        @Override
        public String toString() {
            return "whole";
        }
    }

    /** Bytes [offset, offset + length) of a buffer: a {@link Segment} or a {@link Range}. */
    sealed interface Span extends Block permits Segment, Range {
        long offset();

        long length();

        default long end() {
            return offset() + length();
        }

        @Override
        default long bytes(long unitBytes) {
            return length();
        }

        /** {@code [offset,end)}. */
        default String interval() {
            return "[" + offset() + "," + end() + ")";
        }

        /** Rejects a negative offset or a length below {@code minLength}; {@code kind} names the block in the message. */
        private static void check(String kind, long offset, long length, long minLength) {
            if (offset < 0 || length < minLength) {
                throw new IllegalArgumentException(kind + " offset=" + offset + " length=" + length
                        + " (expected: offset >= 0, length >= " + minLength + ")");
            }
        }
    }

    /** Bytes [offset, offset + length) of the buffer. */
    record Segment(long offset, long length) implements Span {
        public Segment {
            Span.check("segment", offset, length, 1);
        }

        @Override
        public String toString() {
            return interval();
        }
    }

    /** The all-to-all block that starts at {@code origin} and must end at {@code destination}. */
    record Pair(int origin, int destination) implements Block {
        public Pair {
            if (origin < 0 || destination < 0) {
                throw new IllegalArgumentException("pair origin=" + origin + " destination=" + destination
                        + " (expected: >= 0)");
            }
        }

        @Override
        public long bytes(long unitBytes) {
            return unitBytes;
        }

        @Override
        public String toString() {
            return "(" + origin + "->" + destination + ")";
        }
    }

    /** Bytes [offset, offset + length) of the executing rank's buffer {@code role}. */
    record Range(Role role, long offset, long length) implements Span {
        public Range {
            java.util.Objects.requireNonNull(role, "role");
            Span.check("range", offset, length, 0);
        }

        @Override
        public String toString() {
            return role.label() + interval();
        }
    }

    /** Shorthand for {@code new Range(role, offset, length)}. */
    static Range range(Role role, long offset, long length) {
        return new Range(role, offset, length);
    }

    /**
     * Splits {@code bytes} into {@code count} contiguous segments of near-equal size (the first
     * {@code bytes % count} are one byte longer). Requires {@code 1 <= count <= bytes}.
     */
    static List<Block> segments(long bytes, int count) {
        if (count < 1 || count > bytes) {
            throw new IllegalArgumentException("count=" + count + " for bytes=" + bytes
                    + " (expected: 1 <= count <= bytes)");
        }
        List<Block> segments = new ArrayList<>(count);
        long base = bytes / count;
        long extra = bytes % count;
        long offset = 0;
        for (int i = 0; i < count; i++) {
            long length = base + (i < extra ? 1 : 0);
            segments.add(new Segment(offset, length));
            offset += length;
        }
        return List.copyOf(segments);
    }
}
