package io.mpirunj.runtime.fabric;

import io.mpirunj.MpiException;

/** A message was lost because the emulated fabric link it crossed went down ({@code --fabric-fault drop:A-B@T}). */
public final class LinkFailedException extends MpiException {
    private final String link;
    private final long messageId;
    private final double droppedAt;

    public LinkFailedException(String link, double droppedAt, int src, int dst) {
        this(link, droppedAt, src, dst, -1);
    }

    /** {@code messageId}: the arbiter's id of the lost message (names its stand-in RTS), or -1. */
    public LinkFailedException(String link, double droppedAt, int src, int dst, long messageId) {
        super("fabric link " + link + " dropped at model time " + io.mpirunj.fabric.model.Numbers.format(droppedAt)
                + ": message rank " + src + " -> rank " + dst + " lost", null);
        this.link = link;
        this.messageId = messageId;
        this.droppedAt = droppedAt;
    }

    /** Model time the link went down. */
    public double droppedAt() {
        return droppedAt;
    }

    /** The arbiter's id of the lost message, or -1. */
    public long messageId() {
        return messageId;
    }

    /** The link, as {@code A-B} node addresses. */
    public String link() {
        return link;
    }
}
