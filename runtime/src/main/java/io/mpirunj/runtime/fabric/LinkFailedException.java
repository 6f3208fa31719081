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
        this(link, droppedAt, messageId, "fabric link " + link + " dropped at model time "
                + io.mpirunj.fabric.model.Numbers.format(droppedAt) + ": message rank " + src + " -> rank " + dst
                + " lost");
    }

    private LinkFailedException(String link, double droppedAt, long messageId, String message) {
        super(message, null);
        this.link = link;
        this.messageId = messageId;
        this.droppedAt = droppedAt;
    }

    /**
     * A message from {@code src} to {@code dst} lost on a link this process has not been told of yet (the arbiter's
     * notice of the loss comes on another connection than the message's stand-in): {@link #link()} is
     * {@code "(unknown)"} and {@link #droppedAt()} NaN.
     */
    public static LinkFailedException onAnUnknownLink(int src, int dst) {
        return new LinkFailedException("(unknown)", Double.NaN, -1, "a fabric link on its way dropped it: message rank "
                + src + " -> rank " + dst + " lost");
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
