package io.mpirunj.runtime;

/**
 * What a rank can ask of the job around it (the launcher, in either mode). Implemented by the
 * rendezvous client for processes and by the in-JVM job for threads.
 */
public interface JobControl {
    /**
     * Ends the whole job with {@code exitCode}: the launcher stops every other rank and exits with
     * that code. Returns once the request is on its way; the caller then stops its own rank.
     */
    void abort(int worldRank, int exitCode, String reason);

    /** What {@link #finishFence} returns where the job has no fence of its own. */
    long NO_FENCE = -1;

    /**
     * MPI_Finalize's fence, where the job has one of its own: returns once every rank of the job is in
     * {@code Mpi.finish}, with how many collective messages all ranks together sent to this one (each rank gives
     * {@code collectiveSentTo}: how many it sent to each rank); {@link #NO_FENCE} at once where it has none (the
     * world communicator is the fence then). Either way, the ranks not yet in Mpi.finish are told (where the job
     * has a fence, once it has waited {@code RendezvousServer.PEERS_IN_FINISH_DELAY_MS}) how many messages this
     * rank sent them in all ({@code sentTo}, per rank: {@link io.mpirunj.runtime.p2p.P2pEngine#onPeerInFinish}), so
     * that a receive from it that can never be matched fails instead of waiting for ever.
     *
     * @throws io.mpirunj.MpiException if a rank fails or the job ends before every rank is there
     */
    default long finishFence(long[] collectiveSentTo, long[] sentTo) {
        return NO_FENCE;
    }

    /** A JobControl for a job of one rank started without a launcher. */
    JobControl SINGLETON = (rank, code, reason) -> { };
}
