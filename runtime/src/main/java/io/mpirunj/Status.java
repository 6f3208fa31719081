package io.mpirunj;

/**
 * What a completed receive or a probe learned about a message: its source (rank in the
 * communicator), tag and size.
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int byteCount;
    private final int elementBytes;

    /** A message's status; {@code elementBytes} is the size of one element of the receive buffer. */
    public Status(int source, int tag, int byteCount, int elementBytes) {
        this.source = source;
        this.tag = tag;
        this.byteCount = byteCount;
        this.elementBytes = elementBytes;
    }

    /** Rank of the sender in the communicator the message was received on. */
    public int source() {
        return source;
    }

    /** The message's tag. */
    public int tag() {
        return tag;
    }

    /** Size of the message in bytes. */
    public int byteCount() {
        return byteCount;
    }

    /**
     * Number of elements received, in the element type of the receive buffer (bytes for a probe).
     */
    public int count() {
        return byteCount / elementBytes;
    }

    /** Number of whole elements of the given type the message holds. */
    public int count(ElementType type) {
        return byteCount / type.bytes();
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + byteCount + "]";
    }
}
