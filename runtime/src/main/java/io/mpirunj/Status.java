package io.mpirunj;

/**
 * What a completed receive or a probe learned about a message: its source (rank in the
 * communicator), tag and size.
 *
 * @param source       rank of the sender in the communicator the message was received on
 * @param tag          the message's tag
 * @param byteCount    size of the message in bytes
 * @param elementBytes size of one element of the receive buffer (1 for a probe)
 */
public record Status(int source, int tag, int byteCount, int elementBytes) {
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
