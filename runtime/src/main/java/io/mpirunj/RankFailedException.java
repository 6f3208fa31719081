package io.mpirunj;

/** An operation could not complete because the rank it depends on died or its connection dropped. */
public class RankFailedException extends MpiException {
    private final int failedRank;

    /** Rank {@code failedRank} (of the world) failed, as {@code cause} says. */
    public RankFailedException(int failedRank, String message, Throwable cause) {
        super(message, cause);
        this.failedRank = failedRank;
    }

    /** The world rank that failed. */
    public int failedRank() {
        return failedRank;
    }
}
