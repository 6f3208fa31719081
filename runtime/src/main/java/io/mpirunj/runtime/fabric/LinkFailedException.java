package io.mpirunj.runtime.fabric;

import io.mpirunj.MpiException;

/** A message was lost because the emulated fabric link it crossed went down ({@code --fabric-fault drop:A-B@T}). */
public final class LinkFailedException extends MpiException {
    private final String link;

    public LinkFailedException(String link, double droppedAt, int src, int dst) {
        super("fabric link " + link + " dropped at model time " + io.mpirunj.fabric.model.Numbers.format(droppedAt)
                + ": message rank " + src + " -> rank " + dst + " lost", null);
        this.link = link;
    }

    /** The link, as {@code A-B} node addresses. */
    public String link() {
        return link;
    }
}
