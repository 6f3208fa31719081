package io.mpirunj;

/**
 * A communicator: a group of ranks with a private context, so its traffic never mixes with any
 * other communicator's. Obtain the world communicator from {@link Mpi#init(String[])}.
 *
 * <p>Point-to-point follows MPI: messages from one source with one tag on one communicator arrive
 * in the order they were sent; {@link #ANY_SOURCE} and {@link #ANY_TAG} match anything; unexpected
 * messages are queued; large messages use a rendezvous so a flood of them cannot exhaust memory.
 * Counts are in elements of the buffer's type. Tags must be &ge; 0.
 *
 * <p>Collectives must be called by every rank of the communicator (for {@link #multicast}, by the
 * root and the listed ranks) in the same order. Their algorithms are chosen by the collective
 * registry and can be forced with {@code mpirun-j --coll bcast=NAME,...}.
 *
 * <p>A Comm may be used from several threads for point-to-point; collectives on one communicator
 * must not run concurrently.
 */
public interface Comm extends AutoCloseable {
    /** Wildcard source for receives and probes. */
    int ANY_SOURCE = -1;
    /** Wildcard tag for receives and probes. */
    int ANY_TAG = -1;
    /** Colour for {@link #split} meaning "not in any new communicator". */
    int UNDEFINED = -32766;
    /**
     * No rank, as MPI_PROC_NULL: a send to it and a receive or probe from it complete at once and move nothing (the
     * receive's status names PROC_NULL, ANY_TAG, 0 bytes), so a halo exchange needs no branch at the edges.
     */
    int PROC_NULL = -2;

    /** This rank's number in the communicator, 0 to {@code size() - 1}. */
    int rank();

    /** The number of ranks in the communicator. */
    int size();

    /** World rank of the given rank of this communicator. */
    int worldRank(int rank);

    /** Seconds since an arbitrary origin, with nanosecond resolution (MPI_Wtime). */
    double wtime();

    /** Nanoseconds since an arbitrary origin. */
    long wtimeNs();

    /** Ends the whole job with the given exit code (MPI_Abort). Does not return. */
    void abort(int code);

    // ---- point-to-point ------------------------------------------------------------------------

    /** Sends {@code buf} to rank {@code dest}; returns once {@code buf} may be reused. */
    void send(Buffer buf, int dest, int tag);

    /** Receives the next matching message into {@code buf} and says where it came from. */
    Status recv(Buffer buf, int source, int tag);

    /** Starts a send; {@code buf} must not change until the request completes. */
    Request isend(Buffer buf, int dest, int tag);

    /** Starts a receive; {@code buf} holds the message once the request completes. */
    Request irecv(Buffer buf, int source, int tag);

    /** Sends and receives at once, never deadlocking against a matching sendrecv. */
    Status sendrecv(Buffer sendBuf, int dest, int sendTag, Buffer recvBuf, int source, int recvTag);

    /** Blocks until a matching message is available and returns its status, without receiving it. */
    Status probe(int source, int tag);

    /** A matching message's status if one is available now, else null. */
    Status iprobe(int source, int tag);

    // ---- communicators -------------------------------------------------------------------------

    /** A new communicator with the same group and a new context. Collective. */
    Comm dup();

    /**
     * Partitions the group by {@code color}, ordering each part by {@code key} then old rank.
     * Returns null for {@link #UNDEFINED}. Collective.
     */
    Comm split(int color, int key);

    /**
     * A communicator of the listed ranks of this one, in that order; null on ranks not listed.
     * Collective over this communicator.
     */
    Comm create(int... ranks);

    /**
     * This communicator (same ranks, same context, so its traffic and ordering are the ones of
     * {@code this}) with its collectives forced to the named algorithms, as {@code mpirun-j --coll}
     * does for a whole run: e.g. {@code world.withCollectives("bcast=opt-tree,alltoall=pairwise")}.
     * Every rank must make the same choice. Not collective; cheap.
     *
     * @throws IllegalArgumentException for a malformed spec, an operation given twice, or an unknown operation
     *     or algorithm; the message lists the valid names
     */
    Comm withCollectives(String spec);

    // ---- collectives ---------------------------------------------------------------------------
    // Each collective comes in two forms: blocking (bcast) and non-blocking (ibcast). A non-blocking
    // one starts the collective and returns at once; the request completes when this rank's part is
    // done (its buffers may then be read and reused). Every rank starts the same non-blocking
    // collectives in the same order, as for the blocking ones; they may be outstanding together and
    // mix with point-to-point requests in Request.waitAll/waitAny. Schedule-based algorithms are
    // progressed as their messages complete; the others run on a background thread.

    /** Returns once every rank of the communicator has called it. */
    void barrier();

    /** Non-blocking {@link #barrier}. */
    Request ibarrier();

    /** Root's buffer is copied into every rank's buffer. */
    void bcast(Buffer buf, int root);

    /** Non-blocking {@link #bcast}. */
    Request ibcast(Buffer buf, int root);

    /**
     * Root's buffer is copied into the buffers of the ranks in {@code group}. Called by the root and
     * by every rank in the group, all with the same root and group; other ranks do not take part.
     * The group may include the root.
     */
    void multicast(Buffer buf, int root, int... group);

    /** Non-blocking {@link #multicast}. */
    Request imulticast(Buffer buf, int root, int... group);

    /**
     * Block j of send (count/size elements) goes to rank j, arriving as block i of its recv. Send and recv may be the
     * same array (the call then sends a copy of send).
     */
    void alltoall(Buffer send, Buffer recv);

    /** Non-blocking {@link #alltoall}. */
    Request ialltoall(Buffer send, Buffer recv);

    /** As {@link #alltoall}, with a count and an element offset per rank on both sides. */
    void alltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts,
            int[] recvDispls);

    /** Non-blocking {@link #alltoallv}. */
    Request ialltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts,
            int[] recvDispls);

    /** Every rank's send buffer is placed, in rank order, into root's recv (ignored elsewhere: may be null). */
    void gather(Buffer send, Buffer recv, int root);

    /** Non-blocking {@link #gather}. */
    Request igather(Buffer send, Buffer recv, int root);

    /** As {@link #gather}, with a count and an element offset per rank in root's recv. */
    void gatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root);

    /** Non-blocking {@link #gatherv}. */
    Request igatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root);

    /** Block i of root's send goes to rank i's recv (root's send is ignored elsewhere: may be null). */
    void scatter(Buffer send, Buffer recv, int root);

    /** Non-blocking {@link #scatter}. */
    Request iscatter(Buffer send, Buffer recv, int root);

    /** As {@link #scatter}, with a count and an element offset per rank in root's send. */
    void scatterv(Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root);

    /** Non-blocking {@link #scatterv}. */
    Request iscatterv(Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root);

    /** As {@link #gather}, with the result in every rank's recv. */
    void allgather(Buffer send, Buffer recv);

    /** Non-blocking {@link #allgather}. */
    Request iallgather(Buffer send, Buffer recv);

    /** As {@link #gatherv}, with the result in every rank's recv. */
    void allgatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs);

    /** Non-blocking {@link #allgatherv}. */
    Request iallgatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs);

    /** Element-wise reduction of every rank's send into root's recv (ignored elsewhere: may be null). */
    void reduce(Buffer send, Buffer recv, Op op, int root);

    /** Non-blocking {@link #reduce}. */
    Request ireduce(Buffer send, Buffer recv, Op op, int root);

    /** As {@link #reduce}, with the result in every rank's recv. */
    void allreduce(Buffer send, Buffer recv, Op op);

    /** Non-blocking {@link #allreduce}. */
    Request iallreduce(Buffer send, Buffer recv, Op op);

    /**
     * Element-wise reduction of every rank's send (the sum of {@code recvCounts} elements), scattered:
     * block i ({@code recvCounts[i]} elements, the blocks end to end) lands in rank i's recv. Every
     * rank passes the same counts.
     */
    void reduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op);

    /** Non-blocking {@link #reduceScatter}. */
    Request ireduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op);

    /** As {@link #reduceScatter} with every block {@code recv.count()} elements (send holds size times that). */
    void reduceScatterBlock(Buffer send, Buffer recv, Op op);

    /** Non-blocking {@link #reduceScatterBlock}. */
    Request ireduceScatterBlock(Buffer send, Buffer recv, Op op);

    /** Inclusive prefix reduction in rank order: rank r's recv gets send(0) op ... op send(r). */
    void scan(Buffer send, Buffer recv, Op op);

    /** Non-blocking {@link #scan}. */
    Request iscan(Buffer send, Buffer recv, Op op);

    /**
     * Exclusive prefix reduction in rank order: rank r's recv gets send(0) op ... op send(r-1); rank
     * 0's recv is not written (MPI leaves it undefined).
     */
    void exscan(Buffer send, Buffer recv, Op op);

    /** Non-blocking {@link #exscan}. */
    Request iexscan(Buffer send, Buffer recv, Op op);

    /**
     * Frees this communicator. The world is not closed: before {@link Mpi#finish} this throws, after it (as at the end
     * of {@code try (Comm world = Mpi.init(args)) { ...; Mpi.finish(); }}) it does nothing.
     */
    @Override
    void close();
}
