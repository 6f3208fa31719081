package io.mpirunj.runtime.spi;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.Status;

/**
 * Point-to-point on a communicator's private collective context: what a collective algorithm uses
 * to move data. Its traffic never matches user point-to-point traffic on the same communicator.
 * Ranks are ranks of that communicator.
 */
public interface CollChannel {
    int rank();

    int size();

    /** The communicator the collective runs on (for its world-rank mapping, wtime, etc.). */
    Comm comm();

    Request isend(Buffer buf, int dest, int tag);

    Request irecv(Buffer buf, int source, int tag);

    default void send(Buffer buf, int dest, int tag) {
        isend(buf, dest, tag).await();
    }

    default Status recv(Buffer buf, int source, int tag) {
        return irecv(buf, source, tag).await();
    }

    default Status sendrecv(Buffer sendBuf, int dest, int sendTag, Buffer recvBuf, int source, int recvTag) {
        Request r = irecv(recvBuf, source, recvTag);
        Request s = isend(sendBuf, dest, sendTag);
        s.await();
        return r.await();
    }

    /**
     * How threads wait for requests of this channel's rank: the engine's policy (waiters drive its
     * transport when it lets them), or a standalone one for a channel outside this runtime.
     */
    default io.mpirunj.runtime.p2p.WaitPolicy waitPolicy() {
        return comm() instanceof io.mpirunj.runtime.comm.CommImpl
                ? ((io.mpirunj.runtime.comm.CommImpl) comm()).rankContext().engine().waitPolicy()
                : io.mpirunj.runtime.p2p.WaitPolicy.standalone();
    }

    /**
     * The selected algorithm cannot run here (e.g. its fabric is missing) and runs {@code actual} in its place: what
     * {@code --coll-report} then names. Called by the algorithm, before it hands the call on.
     */
    default void ranInstead(CollectiveAlgorithm actual) {
    }

    /** The registry this collective was selected from, for algorithms composed of others. */
    CollectiveRegistry registry();

    /**
     * The rank's configuration: among others the job's fabric and placement
     * ({@link io.mpirunj.runtime.RuntimeConfig#fabricSpec()}), for placement-aware algorithms.
     */
    default io.mpirunj.runtime.RuntimeConfig config() {
        return ((io.mpirunj.runtime.comm.CommImpl) comm()).rankContext().config();
    }

    /**
     * The collective channel of {@code comm}: what {@code comm}'s own collectives use, so a
     * benchmark or test can run one named algorithm exactly as {@code Comm.bcast} would.
     */
    static CollChannel of(Comm comm) {
        if (!(comm instanceof io.mpirunj.runtime.comm.CommImpl)) {
            throw new IllegalArgumentException("not a communicator of this runtime: " + comm);
        }
        return ((io.mpirunj.runtime.comm.CommImpl) comm).collectiveChannel();
    }
}
