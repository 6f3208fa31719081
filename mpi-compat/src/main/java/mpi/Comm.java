package mpi;

import io.mpirunj.Buffer;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A communicator, with the point-to-point and collective calls of Open MPI's Java bindings, on top of
 * mpirun-j's {@code io.mpirunj.Comm}.
 *
 * <p>Buffers are Java arrays of the primitive types, or NIO buffers (direct or heap, byte or typed),
 * passed as {@code Object} or {@code java.nio.Buffer} with the counts, offsets and datatypes of the
 * published signatures. Data start at index 0 of a buffer; an NIO buffer's position and limit are
 * neither read nor changed. Every access is bounds-checked: an overrun is an {@link MPIException}
 * naming the call. The non-blocking calls accept heap buffers and arrays too.
 *
 * <p>Collectives run on the runtime's pluggable algorithms (so {@code mpirun-j --coll bcast=NAME}
 * applies), except where the class comment of {@link Op} says otherwise.
 */
public class Comm implements Freeable, Cloneable {
    static final int DERIVED = 0;
    static final int WORLD = 1;
    static final int SELF = 2;

    /** WORLD and SELF resolve the calling rank's communicator; DERIVED ones hold it. */
    private final int kind;
    /** The communicator of a DERIVED one; null once freed, or for a null communicator. */
    private volatile Binding binding;

    Comm(int kind, Binding binding) {
        this.kind = kind;
        this.binding = binding;
    }

    /** The runtime communicator. The hot path: no map lookup for the world. */
    final io.mpirunj.Comm comm(String call) {
        if (kind == WORLD) {
            return MPI.worldComm(call);
        }
        return binding(call).comm;
    }

    final Binding binding(String call) {
        switch (kind) {
            case WORLD: return MPI.rank(call).world;
            case SELF: return MPI.rank(call).self;
            default:
                Binding b = binding;
                if (b == null) {
                    throw new MPIException(call + ": the communicator is null (freed, or the caller was left out "
                            + "by split or create)", null, MPI.ERR_COMM);
                }
                return b;
        }
    }

    /** Runs {@code body} on the runtime communicator; a failure below it is an {@link MPIException} naming {@code call}. */
    final <T> T onComm(String call, Function<io.mpirunj.Comm, T> body) {
        io.mpirunj.Comm c = comm(call);
        return MPIException.naming(call, () -> body.apply(c));
    }

    /** As {@link #onComm} for a call without a result. */
    final void runOnComm(String call, Consumer<io.mpirunj.Comm> body) {
        io.mpirunj.Comm c = comm(call);
        MPIException.naming(call, () -> body.accept(c));
    }

    /** Runs a collective now on this communicator. */
    private void run(String call, Collective collective) {
        collective.run(call, comm(call));
    }

    /** Starts a non-blocking collective on this communicator. */
    private Request start(String call, Collective collective) {
        return collective.start(call, comm(call));
    }

    static Intracomm wrap(io.mpirunj.Comm c, String name) {
        return new Intracomm(DERIVED, c == null ? null : new Binding(c, name));
    }

    // ---- the communicator -------------------------------------------------------------------------

    /** A duplicate of this communicator: same group, new context (MPI_COMM_DUP). Collective. */
    public Comm dup() {
        return dupIntracomm();
    }

    final Intracomm dupIntracomm() {
        return onComm("dup", c -> wrap(c.dup(), null));
    }

    /** Same as {@link #dup()}, already complete: {@link #getRequest()} returns a completed request. */
    public Comm iDup() {
        return dup();
    }

    /** The request of an {@link #iDup()}: always complete. */
    public final Request getRequest() {
        return Request.completed("iDup", new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0));
    }

    @Override
    public Comm clone() {
        return dup();
    }

    public final int getSize() {
        return comm("getSize").size();
    }

    public final int getRank() {
        return comm("getRank").rank();
    }

    /** IDENT (same communicator), CONGRUENT (same group in order), SIMILAR (same members) or UNEQUAL. */
    public static int compare(Comm comm1, Comm comm2) {
        io.mpirunj.Comm a = comm1.comm("Comm.compare");
        io.mpirunj.Comm b = comm2.comm("Comm.compare");
        if (a == b) {
            return MPI.IDENT;
        }
        int g = Group.compare(comm1.getGroup(), comm2.getGroup());
        return g == MPI.IDENT ? MPI.CONGRUENT : g;
    }

    /** Frees this communicator (MPI_COMM_FREE); the world and self are freed by {@link MPI#Finalize()}. */
    @Override
    public void free() {
        if (kind != DERIVED) {
            throw new MPIException("free: " + (kind == WORLD ? "COMM_WORLD" : "COMM_SELF") + " cannot be freed",
                    null, MPI.ERR_COMM);
        }
        Binding b = binding;
        binding = null;
        if (b != null) {
            b.free(false);
        }
    }

    /** True for a freed communicator, or what split/create return to ranks they leave out. */
    public final boolean isNull() {
        return kind == DERIVED && binding == null;
    }

    public final Group getGroup() {
        io.mpirunj.Comm c = comm("getGroup");
        int[] world = new int[c.size()];
        for (int i = 0; i < world.length; i++) {
            world[i] = c.worldRank(i);
        }
        return new Group(world);
    }

    public final boolean isInter() {
        comm("isInter");
        return false;
    }

    public final void setName(String name) {
        binding("setName").name = name;
    }

    public final String getName() {
        String n = binding("getName").name;
        return n == null ? "" : n;
    }

    /** Errors are always thrown as {@link MPIException}; the handler is recorded only. */
    public final void setErrhandler(Errhandler errhandler) {
        binding("setErrhandler").errhandler = errhandler;
    }

    public final Errhandler getErrhandler() {
        return binding("getErrhandler").errhandler;
    }

    /** TAG_UB (the largest tag), WTIME_IS_GLOBAL (false); null for other keys. */
    public final Object getAttr(int keyval) {
        comm("getAttr");
        if (keyval == MPI.TAG_UB) {
            return Integer.MAX_VALUE;
        }
        if (keyval == MPI.WTIME_IS_GLOBAL) {
            return Boolean.FALSE;
        }
        return null;
    }

    /** Ends the whole job with {@code errorcode} (MPI_ABORT). */
    public final void abort(int errorcode) {
        comm("abort").abort(errorcode);
    }

    // ---- blocking point-to-point ------------------------------------------------------------------

    /**
     * Elements {@code [0, count)} of a send buffer; an array of the datatype's own type takes the short way. A null
     * buffer is one of no elements: Open MPI's bindings send and receive 0 elements of a null buffer (a message that
     * only its envelope carries, e.g. a tag saying stop).
     */
    private static Buffer sendView(String call, Object buf, int count, Datatype type) {
        if (buf == null && count == 0 && type != null) {
            return Buffer.allocate(type.unit.wireType(), 0);
        }
        Buffer b = Region.arrayView(buf, type, count);
        return b != null ? b : Region.of(call, "send", buf, type).read(0, count);
    }

    /** Where elements {@code [0, count)} are received; as {@link #sendView}: an array takes the short way, null none. */
    private static Region.Landing receiveView(String call, Object buf, int count, Datatype type) {
        if (buf == null && count == 0 && type != null) {
            return nowhere(type);
        }
        Buffer b = Region.arrayView(buf, type, count);
        return b != null ? new Region.Landing(b) : Region.of(call, "receive", buf, type).write(0, count);
    }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) {
        send0("send", buf, count, type, dest, tag);
    }

    /** As {@link #send}: no attached buffer is needed (small messages are sent eagerly anyway). */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) {
        send0("bSend", buf, count, type, dest, tag);
    }

    /** As {@link #send}: returns once the data are on their way, not necessarily received. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) {
        send0("sSend", buf, count, type, dest, tag);
    }

    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) {
        send0("rSend", buf, count, type, dest, tag);
    }

    private void send0(String call, Object buf, int count, Datatype type, int dest, int tag) {
        if (dest == MPI.PROC_NULL) {
            return;
        }
        runOnComm(call, c -> c.send(sendView(call, buf, count, type), peer(call, c, "dest", dest, tag, false), tag));
    }

    /**
     * {@code rank}, checked as a send's destination or ({@code receiving}) a receive's source on {@code c}, with its
     * {@code tag}: the error classes of Open MPI, MPI_ERR_RANK for a rank outside the communicator (ANY_SOURCE is one
     * for a receive) and MPI_ERR_TAG for a negative tag (ANY_TAG is one for a receive).
     */
    private static int peer(String call, io.mpirunj.Comm c, String role, int rank, int tag, boolean receiving) {
        if ((rank < 0 || rank >= c.size()) && !(receiving && rank == MPI.ANY_SOURCE)) {
            throw new MPIException(call + ": " + role + " " + rank + " (expected: 0 <= " + role + " < " + c.size()
                    + (receiving ? ", ANY_SOURCE" : "") + " or PROC_NULL)", null, MPI.ERR_RANK);
        }
        if (tag < 0 && !(receiving && tag == MPI.ANY_TAG)) {
            throw new MPIException(call + ": tag " + tag + " (expected: >= 0" + (receiving ? " or ANY_TAG" : "") + ")",
                    null, MPI.ERR_TAG);
        }
        return rank;
    }

    /** The communicator of a call with a root: MPI_ERR_ROOT unless {@code root} is one of its ranks. */
    private io.mpirunj.Comm rooted(String call, int root) {
        io.mpirunj.Comm c = comm(call);
        if (root < 0 || root >= c.size()) {
            throw new MPIException(call + ": root " + root + " (expected: 0 <= root < " + c.size() + ")", null,
                    MPI.ERR_ROOT);
        }
        return c;
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) {
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        return onComm("recv", c -> {
            Region.Landing l = receiveView("recv", buf, count, type);
            Status s = Status.of(c.recv(l.buffer, peer("recv", c, "source", source, tag, true), tag));
            l.land();
            return s;
        });
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
            Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) {
        String call = "sendRecv";
        return onComm(call, c -> {
            Buffer s = sendView(call, sendbuf, sendcount, sendtype);
            Region.Landing l = receiveView(call, recvbuf, recvcount, recvtype);
            return exchange(call, c, s, dest, sendtag, l, source, recvtag);
        });
    }

    /** Sends {@code buf}, then receives into it (MPI_SENDRECV_REPLACE). */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
            int recvtag) {
        String call = "sendRecvReplace";
        return onComm(call, c -> {
            Region r = Region.of(call, "data", buf, type);
            Buffer s = r.read(0, count).copy();
            return exchange(call, c, s, dest, sendtag, r.write(0, count), source, recvtag);
        });
    }

    private static Status exchange(String call, io.mpirunj.Comm c, Buffer s, int dest, int sendtag, Region.Landing l,
            int source, int recvtag) {
        if (dest != MPI.PROC_NULL) {
            peer(call, c, "dest", dest, sendtag, false);
        }
        if (source != MPI.PROC_NULL) {
            peer(call, c, "source", source, recvtag, true);
        }
        Status st;
        if (dest == MPI.PROC_NULL && source == MPI.PROC_NULL) {
            return Status.procNull();
        } else if (dest == MPI.PROC_NULL) {
            st = Status.of(c.recv(l.buffer, source, recvtag));
        } else if (source == MPI.PROC_NULL) {
            c.send(s, dest, sendtag);
            return Status.procNull();
        } else {
            st = Status.of(c.sendrecv(s, dest, sendtag, l.buffer, source, recvtag));
        }
        l.land();
        return st;
    }

    // ---- non-blocking point-to-point --------------------------------------------------------------

    /** Starts a send; {@code buf} may be any buffer, direct or not. */
    public final Request iSend(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return isend0("iSend", buf, count, type, dest, tag);
    }

    /** Starts a send from an array (the MVAPICH2-J addition). */
    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isend0("iSend", buf, count, type, dest, tag);
    }

    public final Request ibSend(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return isend0("ibSend", buf, count, type, dest, tag);
    }

    public final Request isSend(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return isend0("isSend", buf, count, type, dest, tag);
    }

    public final Request irSend(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return isend0("irSend", buf, count, type, dest, tag);
    }

    /** Starts a receive; {@code buf} may be any buffer, direct or not. */
    public final Request iRecv(java.nio.Buffer buf, int count, Datatype type, int source, int tag) {
        return irecv0("iRecv", buf, count, type, source, tag);
    }

    /** Starts a receive into an array (the MVAPICH2-J addition). */
    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag) {
        return irecv0("iRecv", buf, count, type, source, tag);
    }

    private Request isend0(String call, Object buf, int count, Datatype type, int dest, int tag) {
        if (dest == MPI.PROC_NULL) {
            return Request.completed(call, Status.procNull());
        }
        return onComm(call, c -> new Request(call, c.isend(sendView(call, buf, count, type),
                peer(call, c, "dest", dest, tag, false), tag), null));
    }

    private Request irecv0(String call, Object buf, int count, Datatype type, int source, int tag) {
        if (source == MPI.PROC_NULL) {
            return Request.completed(call, Status.procNull());
        }
        return onComm(call, c -> {
            Region.Landing l = receiveView(call, buf, count, type);
            return new Request(call, c.irecv(l.buffer, peer(call, c, "source", source, tag, true), tag), l::land);
        });
    }

    // ---- persistent requests ----------------------------------------------------------------------

    public final Prequest sendInit(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return persistentSend("sendInit", buf, count, type, dest, tag);
    }

    public final Prequest bSendInit(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return persistentSend("bSendInit", buf, count, type, dest, tag);
    }

    public final Prequest sSendInit(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return persistentSend("sSendInit", buf, count, type, dest, tag);
    }

    public final Prequest rSendInit(java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        return persistentSend("rSendInit", buf, count, type, dest, tag);
    }

    public final Prequest recvInit(java.nio.Buffer buf, int count, Datatype type, int source, int tag) {
        receiveView("recvInit", buf, count, type); // checks now, as MPI_RECV_INIT does
        if (source != MPI.PROC_NULL) {
            peer("recvInit", comm("recvInit"), "source", source, tag, true);
        }
        return new Prequest("recvInit", () -> irecv0("recvInit", buf, count, type, source, tag));
    }

    private Prequest persistentSend(String call, java.nio.Buffer buf, int count, Datatype type, int dest, int tag) {
        sendView(call, buf, count, type); // checks now, as MPI_SEND_INIT does
        if (dest != MPI.PROC_NULL) {
            peer(call, comm(call), "dest", dest, tag, false);
        }
        return new Prequest(call, () -> isend0(call, buf, count, type, dest, tag));
    }

    // ---- probe, pack ------------------------------------------------------------------------------

    public final Status probe(int source, int tag) {
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        return onComm("probe", c -> Status.of(c.probe(peer("probe", c, "source", source, tag, true), tag)));
    }

    /** The status of a matching message if one has arrived, else null. */
    public final Status iProbe(int source, int tag) {
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        return onComm("iProbe", c -> Status.of(c.iprobe(peer("iProbe", c, "source", source, tag, true), tag)));
    }

    /** Packs {@code incount} elements into {@code outbuf} at {@code position}; returns the new position. */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) {
        return MPIException.naming("pack", () -> {
            Buffer v = Region.of("pack", "input", inbuf, type).read(0, incount);
            v.copyOut(0, ByteBuffer.wrap(outbuf, position, v.byteLength()));
            return position + v.byteLength();
        });
    }

    /** Unpacks {@code outcount} elements from {@code inbuf} at {@code position}; returns the new position. */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) {
        return MPIException.naming("unpack", () -> {
            Region.Landing l = Region.of("unpack", "output", outbuf, type).write(0, outcount);
            l.buffer.copyIn(0, ByteBuffer.wrap(inbuf, position, l.buffer.byteLength()));
            l.land();
            return position + l.buffer.byteLength();
        });
    }

    /** Bytes {@link #pack} needs for {@code incount} elements of {@code type}. */
    public final int packSize(int incount, Datatype type) {
        return incount * type.elementBytes();
    }

    // ---- collectives: barrier and bcast -----------------------------------------------------------

    private static final Collective BARRIER = new Collective(io.mpirunj.Comm::barrier, io.mpirunj.Comm::ibarrier,
            Collective.NOTHING);

    public final void barrier() {
        run("barrier", BARRIER);
    }

    public final Request iBarrier() {
        return start("iBarrier", BARRIER);
    }

    public final void bcast(Object buf, int count, Datatype type, int root) {
        Buffer b = Region.arrayView(buf, type, count);
        if (b == null) {
            run("bcast", bcastCall("bcast", buf, count, type, root));
            return;
        }
        io.mpirunj.Comm c = rooted("bcast", root);
        MPIException.naming("bcast", () -> c.bcast(b, root)); // the short way: an array of the datatype's own type
    }

    public final Request iBcast(java.nio.Buffer buf, int count, Datatype type, int root) {
        return start("iBcast", bcastCall("iBcast", buf, count, type, root));
    }

    private Collective bcastCall(String call, Object buf, int count, Datatype type, int root) {
        Region r = Region.of(call, "data", buf, type);
        checkCount(call, r, count);
        Region.Landing l = rooted(call, root).rank() == root ? new Region.Landing(r.read(0, count)) : r.write(0, count);
        return new Collective(c -> c.bcast(l.buffer, root), c -> c.ibcast(l.buffer, root), l::land);
    }

    private static void checkCount(String call, Region r, long needed) {
        if (needed < 0 || needed > r.capacity()) {
            throw new MPIException(call + ": the buffer holds " + r.capacity() + " elements of " + r.type()
                    + " but the call needs " + needed, null, needed < 0 ? MPI.ERR_COUNT : MPI.ERR_BUFFER);
        }
    }

    /** An empty receive buffer, for the ranks whose receive arguments a collective ignores. */
    private static Region.Landing nowhere(Datatype type) {
        return new Region.Landing(Buffer.allocate(type.unit.wireType(), 0));
    }

    /** Counts or displacements in datatype elements, as runtime buffer elements. */
    private static int[] wire(int[] a, Datatype type) {
        if (a == null) {
            return null;
        }
        int f = type.wireElements();
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * f;
        }
        return out;
    }

    /** Elements a counts/displacements layout reaches: max(displs[i] + counts[i]). */
    private static int extent(String call, int[] counts, int[] displs, int size) {
        if (counts == null || displs == null || counts.length < size || displs.length < size) {
            throw new MPIException(call + ": counts and displacements need " + size + " entries each", null,
                    MPI.ERR_COUNT);
        }
        long max = 0;
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0 || displs[i] < 0) {
                throw new MPIException(call + ": block " + i + " has count=" + counts[i] + ", displ=" + displs[i]
                        + " (expected: >= 0)", null, MPI.ERR_COUNT);
            }
            max = Math.max(max, (long) displs[i] + counts[i]);
        }
        if (max > Integer.MAX_VALUE) {
            throw new MPIException(call + ": the layout reaches element " + max, null, MPI.ERR_COUNT);
        }
        return (int) max;
    }

    // ---- gather ------------------------------------------------------------------------------------

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) {
        run("gather", gatherCall("gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    /** In place: at the root {@code buf} is the receive buffer and holds its own block already. */
    public final void gather(Object buf, int count, Datatype type, int root) {
        run("gather", gatherCall("gather", buf, count, type, buf, count, type, root, true));
    }

    public final Request iGather(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype, java.nio.Buffer recvbuf,
            int recvcount, Datatype recvtype, int root) {
        return start("iGather", gatherCall("iGather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                false));
    }

    public final Request iGather(java.nio.Buffer buf, int count, Datatype type, int root) {
        return start("iGather", gatherCall("iGather", buf, count, type, buf, count, type, root, true));
    }

    private Collective gatherCall(String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace) {
        RootedCall r = new RootedCall(call, root, inPlace, false, "receive", recvbuf, recvtype, "send", sendbuf,
                sendtype);
        r.checkCounts(call, (long) recvcount * r.size, sendcount);
        Buffer s = r.own == null ? r.rooted.read(root * recvcount, recvcount).copy() : r.own.read(0, sendcount);
        Region.Landing l = r.isRoot ? r.rooted.write(0, recvcount * r.size) : nowhere(sendtype);
        return new Collective(c -> c.gather(s, l.buffer, root), c -> c.igather(s, l.buffer, root), l::land);
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root) {
        run("gatherv", gathervCall("gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root,
                false));
    }

    /** In place, at the root: {@code recvbuf} holds the root's own block already. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        run("gatherv", gathervCall("gatherv", null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root, true));
    }

    /** At a non-root rank, whose receive arguments do not matter. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) {
        run("gatherv", gathervCall("gatherv", sendbuf, sendcount, sendtype, null, null, null, sendtype, root, false));
    }

    public final Request iGatherv(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype, java.nio.Buffer recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype, int root) {
        return start("iGatherv", gathervCall("iGatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, root, false));
    }

    public final Request iGatherv(java.nio.Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
            int root) {
        return start("iGatherv", gathervCall("iGatherv", null, 0, recvtype, recvbuf, recvcount, displs, recvtype,
                root, true));
    }

    public final Request iGatherv(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype, int root) {
        return start("iGatherv", gathervCall("iGatherv", sendbuf, sendcount, sendtype, null, null, null, sendtype,
                root, false));
    }

    private Collective gathervCall(String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root, boolean inPlace) {
        RootedCall r = new RootedCall(call, root, inPlace, true, "receive", recvbuf, recvtype, "send", sendbuf,
                sendtype);
        VaryingLayout v = r.varying(call, recvcount, displs, recvtype, sendcount);
        int[] counts = v.counts();
        int[] offsets = v.offsets();
        Buffer s = inPlace ? r.rooted.read(displs[root], recvcount[root]).copy() : r.own.read(0, sendcount);
        Region.Landing l = r.isRoot ? r.rooted.write(0, v.reach()) : nowhere(sendtype);
        return new Collective(c -> c.gatherv(s, l.buffer, counts, offsets, root),
                c -> c.igatherv(s, l.buffer, counts, offsets, root), l::land);
    }

    /**
     * What the rooted calls (gather, scatter and their v-forms) share: the root's buffer of every rank's
     * block (the receive buffer of a gather, the send buffer of a scatter) and each rank's own block (its
     * send or receive buffer; none at the root in place), opened in that order.
     */
    private final class RootedCall {
        final boolean isRoot;
        final int size;
        /** The root's buffer of every block; null off the root. */
        final Region rooted;
        /** This rank's own block; null at the root in place. */
        final Region own;

        /** {@code rootOnlyInPlace}: the in-place form is refused off the root (the v-forms': it has no own buffer). */
        RootedCall(String call, int root, boolean inPlace, boolean rootOnlyInPlace, String rootedRole,
                Object rootedBuf, Datatype rootedType, String ownRole, Object ownBuf, Datatype ownType) {
            io.mpirunj.Comm c0 = rooted(call, root);
            int me = c0.rank();
            isRoot = me == root;
            size = c0.size();
            if (rootOnlyInPlace && inPlace && !isRoot) {
                throw new MPIException(call + ": the in-place form (no " + ownRole + " buffer) is for the root only; "
                        + "rank " + me + " is not the root " + root, null, MPI.ERR_ROOT);
            }
            rooted = isRoot ? Region.of(call, rootedRole, rootedBuf, rootedType) : null;
            own = inPlace && isRoot ? null : Region.of(call, ownRole, ownBuf, ownType);
        }

        /** Checks that the root's buffer holds {@code rootedElements} and the own block {@code ownCount}. */
        void checkCounts(String call, long rootedElements, int ownCount) {
            if (rooted != null) {
                checkCount(call, rooted, rootedElements);
            }
            if (own != null) {
                checkCount(call, own, ownCount);
            }
        }

        /**
         * The v-forms' root layout: checks both buffers against the root's per-rank counts and
         * displacements (in elements of {@code rootType}) and the own block, and converts them to wire units.
         */
        VaryingLayout varying(String call, int[] rootCounts, int[] displs, Datatype rootType, int ownCount) {
            int reach = isRoot ? extent(call, rootCounts, displs, size) : 0;
            checkCounts(call, reach, ownCount);
            return new VaryingLayout(reach, isRoot ? wire(rootCounts, rootType) : null,
                    isRoot ? wire(displs, rootType) : null);
        }
    }

    /** The root's elements reached, and counts and offsets on the wire (null off the root). */
    private record VaryingLayout(int reach, int[] counts, int[] offsets) {
    }

    // ---- scatter -----------------------------------------------------------------------------------

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) {
        run("scatter", scatterCall("scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    /** In place: at the root {@code buf} is the send buffer, and its own block stays where it is. */
    public final void scatter(Object buf, int count, Datatype type, int root) {
        run("scatter", scatterCall("scatter", buf, count, type, buf, count, type, root, true));
    }

    public final Request iScatter(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype, java.nio.Buffer recvbuf,
            int recvcount, Datatype recvtype, int root) {
        return start("iScatter", scatterCall("iScatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, false));
    }

    public final Request iScatter(java.nio.Buffer buf, int count, Datatype type, int root) {
        return start("iScatter", scatterCall("iScatter", buf, count, type, buf, count, type, root, true));
    }

    private Collective scatterCall(String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace) {
        RootedCall r = new RootedCall(call, root, inPlace, false, "send", sendbuf, sendtype, "receive", recvbuf,
                recvtype);
        r.checkCounts(call, (long) sendcount * r.size, recvcount);
        Buffer s = r.isRoot ? r.rooted.read(0, sendcount * r.size) : Buffer.allocate(recvtype.unit.wireType(), 0);
        // in place, the root's own block stays in the send buffer: it lands in a scratch buffer
        Region.Landing l = r.own == null ? new Region.Landing(s.allocateLike(s.count() / r.size))
                : r.own.write(0, recvcount);
        return new Collective(c -> c.scatter(s, l.buffer, root), c -> c.iscatter(s, l.buffer, root), l::land);
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root) {
        run("scatterv", scattervCall("scatterv", sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype,
                root, false));
    }

    /** In place, at the root: its own block stays in {@code sendbuf}. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        run("scatterv", scattervCall("scatterv", sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root, true));
    }

    /** At a non-root rank, whose send arguments do not matter. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) {
        run("scatterv", scattervCall("scatterv", null, null, null, recvtype, recvbuf, recvcount, recvtype, root,
                false));
    }

    public final Request iScatterv(java.nio.Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
            java.nio.Buffer recvbuf, int recvcount, Datatype recvtype, int root) {
        return start("iScatterv", scattervCall("iScatterv", sendbuf, sendcount, displs, sendtype, recvbuf, recvcount,
                recvtype, root, false));
    }

    public final Request iScatterv(java.nio.Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
            int root) {
        return start("iScatterv", scattervCall("iScatterv", sendbuf, sendcount, displs, sendtype, null, 0, sendtype,
                root, true));
    }

    public final Request iScatterv(java.nio.Buffer recvbuf, int recvcount, Datatype recvtype, int root) {
        return start("iScatterv", scattervCall("iScatterv", null, null, null, recvtype, recvbuf, recvcount, recvtype,
                root, false));
    }

    private Collective scattervCall(String call, Object sendbuf, int[] sendcount, int[] displs,
            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace) {
        RootedCall r = new RootedCall(call, root, inPlace, true, "send", sendbuf, sendtype, "receive", recvbuf,
                recvtype);
        VaryingLayout v = r.varying(call, sendcount, displs, sendtype, recvcount);
        int[] counts = v.counts();
        int[] offsets = v.offsets();
        Buffer s = r.isRoot ? r.rooted.read(0, v.reach()) : Buffer.allocate(recvtype.unit.wireType(), 0);
        Region.Landing l = inPlace ? new Region.Landing(s.allocateLike(counts[root])) : r.own.write(0, recvcount);
        return new Collective(c -> c.scatterv(s, counts, offsets, l.buffer, root),
                c -> c.iscatterv(s, counts, offsets, l.buffer, root), l::land);
    }

    // ---- allgather, alltoall -----------------------------------------------------------------------

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) {
        run("allGather", allGatherCall("allGather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false));
    }

    /** In place: {@code buf} holds this rank's own block already. */
    public final void allGather(Object buf, int count, Datatype type) {
        run("allGather", allGatherCall("allGather", buf, count, type, buf, count, type, true));
    }

    public final Request iAllGather(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype,
            java.nio.Buffer recvbuf, int recvcount, Datatype recvtype) {
        return start("iAllGather", allGatherCall("iAllGather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, false));
    }

    public final Request iAllGather(java.nio.Buffer buf, int count, Datatype type) {
        return start("iAllGather", allGatherCall("iAllGather", buf, count, type, buf, count, type, true));
    }

    private Collective allGatherCall(String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype, boolean inPlace) {
        io.mpirunj.Comm c0 = comm(call);
        int me = c0.rank();
        int size = c0.size();
        Region recv = Region.of(call, "receive", recvbuf, recvtype);
        Region send = inPlace ? null : Region.of(call, "send", sendbuf, sendtype);
        checkCount(call, recv, (long) recvcount * size);
        if (send != null) {
            checkCount(call, send, sendcount);
        }
        Buffer s = inPlace ? recv.read(me * recvcount, recvcount).copy() : send.read(0, sendcount);
        Region.Landing l = recv.write(0, recvcount * size);
        return new Collective(c -> c.allgather(s, l.buffer), c -> c.iallgather(s, l.buffer), l::land);
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype) {
        run("allGatherv", allGathervCall("allGatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, false));
    }

    /** In place: {@code recvbuf} holds this rank's own block already. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        run("allGatherv", allGathervCall("allGatherv", null, 0, recvtype, recvbuf, recvcount, displs, recvtype, true));
    }

    public final Request iAllGatherv(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype,
            java.nio.Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        return start("iAllGatherv", allGathervCall("iAllGatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, false));
    }

    public final Request iAllGatherv(java.nio.Buffer buf, int[] count, int[] displs, Datatype type) {
        return start("iAllGatherv", allGathervCall("iAllGatherv", null, 0, type, buf, count, displs, type, true));
    }

    private Collective allGathervCall(String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, boolean inPlace) {
        io.mpirunj.Comm c0 = comm(call);
        int me = c0.rank();
        Region recv = Region.of(call, "receive", recvbuf, recvtype);
        Region send = inPlace ? null : Region.of(call, "send", sendbuf, sendtype);
        int reach = extent(call, recvcount, displs, c0.size());
        checkCount(call, recv, reach);
        if (send != null) {
            checkCount(call, send, sendcount);
        }
        int[] counts = wire(recvcount, recvtype);
        int[] offsets = wire(displs, recvtype);
        Buffer s = inPlace ? recv.read(displs[me], recvcount[me]).copy() : send.read(0, sendcount);
        Region.Landing l = recv.write(0, reach);
        return new Collective(c -> c.allgatherv(s, l.buffer, counts, offsets),
                c -> c.iallgatherv(s, l.buffer, counts, offsets), l::land);
    }

    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) {
        run("allToAll", allToAllCall("allToAll", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public final Request iAllToAll(java.nio.Buffer sendbuf, int sendcount, Datatype sendtype, java.nio.Buffer recvbuf,
            int recvcount, Datatype recvtype) {
        return start("iAllToAll", allToAllCall("iAllToAll", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype));
    }

    private Collective allToAllCall(String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype) {
        int size = comm(call).size();
        Region send = Region.of(call, "send", sendbuf, sendtype);
        Region recv = Region.of(call, "receive", recvbuf, recvtype);
        checkCount(call, send, (long) sendcount * size);
        checkCount(call, recv, (long) recvcount * size);
        Buffer s = send.read(0, sendcount * size);
        Region.Landing l = recv.write(0, recvcount * size);
        return new Collective(c -> c.alltoall(s, l.buffer), c -> c.ialltoall(s, l.buffer), l::land);
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] rdispls, Datatype recvtype) {
        run("allToAllv", allToAllvCall("allToAllv", sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount,
                rdispls, recvtype));
    }

    public final Request iAllToAllv(java.nio.Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            java.nio.Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        return start("iAllToAllv", allToAllvCall("iAllToAllv", sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype));
    }

    private Collective allToAllvCall(String call, Object sendbuf, int[] sendcount, int[] sdispls,
            Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        int size = comm(call).size();
        Region send = Region.of(call, "send", sendbuf, sendtype);
        Region recv = Region.of(call, "receive", recvbuf, recvtype);
        int sendReach = extent(call, sendcount, sdispls, size);
        int recvReach = extent(call, recvcount, rdispls, size);
        checkCount(call, send, sendReach);
        checkCount(call, recv, recvReach);
        int[] sc = wire(sendcount, sendtype);
        int[] sd = wire(sdispls, sendtype);
        int[] rc = wire(recvcount, recvtype);
        int[] rd = wire(rdispls, recvtype);
        Buffer s = send.read(0, sendReach);
        Region.Landing l = recv.write(0, recvReach);
        return new Collective(c -> c.alltoallv(s, sc, sd, l.buffer, rc, rd),
                c -> c.ialltoallv(s, sc, sd, l.buffer, rc, rd), l::land);
    }

    // ---- reductions --------------------------------------------------------------------------------

    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        run("reduce", reduceCall("reduce", sendbuf, recvbuf, count, type, op, root, false));
    }

    /** In place: at the root {@code buf} is both its contribution and the result. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) {
        run("reduce", reduceCall("reduce", buf, buf, count, type, op, root, true));
    }

    public final Request iReduce(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op,
            int root) {
        return start("iReduce", reduceCall("iReduce", sendbuf, recvbuf, count, type, op, root, false));
    }

    public final Request iReduce(java.nio.Buffer buf, int count, Datatype type, Op op, int root) {
        return start("iReduce", reduceCall("iReduce", buf, buf, count, type, op, root, true));
    }

    private Collective reduceCall(String call, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
            int root, boolean inPlace) {
        Combiner.check(call, op, type);
        io.mpirunj.Comm c0 = rooted(call, root);
        int size = c0.size();
        boolean isRoot = c0.rank() == root;
        Region recv = isRoot ? Region.of(call, "receive", recvbuf, type) : null;
        Region send = inPlace && isRoot ? null : Region.of(call, "send", sendbuf, type);
        if (recv != null) {
            checkCount(call, recv, count);
        }
        if (send != null) {
            checkCount(call, send, count);
        }
        Buffer s = send != null ? send.read(0, count) : recv.read(0, count).copy();
        if (Combiner.runtimeCan(op, type)) {
            Region.Landing l = isRoot ? recv.write(0, count) : new Region.Landing(s.allocateLike(s.count()));
            return new Collective(c -> c.reduce(s, l.buffer, op.builtin, root),
                    c -> c.ireduce(s, l.buffer, op.builtin, root), l::land);
        }
        // this package's own reduction: every image to the root, folded there
        Buffer mine = Buffer.of(Region.image(s));
        Buffer all = Buffer.allocate(io.mpirunj.ElementType.BYTE, isRoot ? mine.count() * size : 0);
        boolean nio = isNio(sendbuf, recvbuf);
        return new Collective(c -> c.gather(mine, all, root), c -> c.igather(mine, all, root), () -> {
            if (isRoot) {
                landImage(Reduce.fold((byte[]) all.array(), mine.count(), 0, size, op, type, count, nio),
                        recv.write(0, count));
            }
        });
    }

    private static boolean isNio(Object sendbuf, Object recvbuf) {
        return sendbuf instanceof java.nio.Buffer || recvbuf instanceof java.nio.Buffer;
    }

    /** Writes the result image {@code img} where {@code l} receives, and lands it. */
    private static void landImage(byte[] img, Region.Landing l) {
        Region.restore(img, l.buffer);
        l.land();
    }

    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        run("allReduce", allReduceCall("allReduce", sendbuf, recvbuf, count, type, op, false));
    }

    /** In place: {@code buf} is both this rank's contribution and the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) {
        run("allReduce", allReduceCall("allReduce", buf, buf, count, type, op, true));
    }

    public final Request iAllReduce(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type,
            Op op) {
        return start("iAllReduce", allReduceCall("iAllReduce", sendbuf, recvbuf, count, type, op, false));
    }

    public final Request iAllReduce(java.nio.Buffer buf, int count, Datatype type, Op op) {
        return start("iAllReduce", allReduceCall("iAllReduce", buf, buf, count, type, op, true));
    }

    private Collective allReduceCall(String call, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
            boolean inPlace) {
        return prefixOrAll(call, sendbuf, recvbuf, count, type, op, inPlace, Span.ALL);
    }

    /** Which ranks' contributions a rank's result folds: all of them, or those up to it (scans). */
    private enum Span {
        ALL, INCLUSIVE, EXCLUSIVE
    }

    /** allReduce, scan and exScan: the runtime's where it can, else every image to every rank, folded there. */
    private Collective prefixOrAll(String call, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
            boolean inPlace, Span span) {
        Combiner.check(call, op, type);
        io.mpirunj.Comm c0 = comm(call);
        int me = c0.rank();
        int size = c0.size();
        Region recv = Region.of(call, "receive", recvbuf, type);
        Region send = inPlace ? null : Region.of(call, "send", sendbuf, type);
        checkCount(call, recv, count);
        if (send != null) {
            checkCount(call, send, count);
        }
        Buffer s = send != null ? send.read(0, count) : recv.read(0, count).copy();
        // exScan leaves rank 0's buffer as it was (MPI leaves it undefined): nothing lands there
        boolean lands = span != Span.EXCLUSIVE || me > 0;
        if (Combiner.runtimeCan(op, type)) {
            Region.Landing l = recv.write(0, count);
            Runnable finish = lands ? l::land : Collective.NOTHING;
            switch (span) {
                case ALL:
                    return new Collective(c -> c.allreduce(s, l.buffer, op.builtin),
                            c -> c.iallreduce(s, l.buffer, op.builtin), finish);
                case INCLUSIVE:
                    return new Collective(c -> c.scan(s, l.buffer, op.builtin), c -> c.iscan(s, l.buffer, op.builtin),
                            finish);
                default:
                    return new Collective(c -> c.exscan(s, l.buffer, op.builtin),
                            c -> c.iexscan(s, l.buffer, op.builtin), finish);
            }
        }
        // this package's own reduction: every image to every rank, each folds what its result needs
        Buffer mine = Buffer.of(Region.image(s));
        Buffer all = Buffer.allocate(io.mpirunj.ElementType.BYTE, mine.count() * size);
        int upTo = span == Span.ALL ? size : span == Span.INCLUSIVE ? me + 1 : me;
        boolean nio = isNio(sendbuf, recvbuf);
        return new Collective(c -> c.allgather(mine, all), c -> c.iallgather(mine, all), () -> {
            if (lands) {
                landImage(Reduce.fold((byte[]) all.array(), mine.count(), 0, upTo, op, type, count, nio),
                        recv.write(0, count));
            }
        });
    }

    /** Reduces then scatters blocks of {@code recvcounts} elements (MPI_REDUCE_SCATTER). */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) {
        run("reduceScatter", reduceScatterCall("reduceScatter", sendbuf, recvbuf, recvcounts, type, op, false, false));
    }

    /** In place: {@code buf} holds every block's contribution; the result is its first block. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) {
        run("reduceScatter", reduceScatterCall("reduceScatter", buf, buf, counts, type, op, true, false));
    }

    public final Request iReduceScatter(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int[] recvcounts,
            Datatype type, Op op) {
        return start("iReduceScatter", reduceScatterCall("iReduceScatter", sendbuf, recvbuf, recvcounts, type, op,
                false, false));
    }

    public final Request iReduceScatter(java.nio.Buffer buf, int[] counts, Datatype type, Op op) {
        return start("iReduceScatter", reduceScatterCall("iReduceScatter", buf, buf, counts, type, op, true, false));
    }

    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) {
        run("reduceScatterBlock", reduceScatterCall("reduceScatterBlock", sendbuf, recvbuf,
                blocks(recvcount, comm("reduceScatterBlock").size()), type, op, false, true));
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) {
        run("reduceScatterBlock", reduceScatterCall("reduceScatterBlock", buf, buf,
                blocks(count, comm("reduceScatterBlock").size()), type, op, true, true));
    }

    public final Request iReduceScatterBlock(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int recvcount,
            Datatype type, Op op) {
        return start("iReduceScatterBlock", reduceScatterCall("iReduceScatterBlock", sendbuf, recvbuf,
                blocks(recvcount, comm("iReduceScatterBlock").size()), type, op, false, true));
    }

    public final Request iReduceScatterBlock(java.nio.Buffer buf, int count, Datatype type, Op op) {
        return start("iReduceScatterBlock", reduceScatterCall("iReduceScatterBlock", buf, buf,
                blocks(count, comm("iReduceScatterBlock").size()), type, op, true, true));
    }

    private static int[] blocks(int count, int size) {
        int[] a = new int[size];
        Arrays.fill(a, count);
        return a;
    }

    /**
     * reduceScatter and reduceScatterBlock ({@code block}: every count the same): the runtime's where it
     * can; else each rank's blocks go to their ranks (alltoallv), each rank folds the blocks it got.
     */
    private Collective reduceScatterCall(String call, Object sendbuf, Object recvbuf, int[] recvcounts,
            Datatype type, Op op, boolean inPlace, boolean block) {
        Combiner.check(call, op, type);
        io.mpirunj.Comm c0 = comm(call);
        int me = c0.rank();
        int size = c0.size();
        if (recvcounts == null || recvcounts.length < size) {
            throw new MPIException(call + ": recvcounts needs " + size + " entries", null, MPI.ERR_COUNT);
        }
        long total = 0;
        for (int i = 0; i < size; i++) {
            if (recvcounts[i] < 0) {
                throw new MPIException(call + ": recvcounts[" + i + "]=" + recvcounts[i] + " (expected: >= 0)", null,
                        MPI.ERR_COUNT);
            }
            total += recvcounts[i];
        }
        Region recv = Region.of(call, "receive", recvbuf, type);
        Region send = inPlace ? recv : Region.of(call, "send", sendbuf, type);
        checkCount(call, send, total);
        int mine = recvcounts[me];
        checkCount(call, recv, mine);
        int n = (int) total;
        Buffer s = inPlace ? send.read(0, n).copy() : send.read(0, n);
        if (Combiner.runtimeCan(op, type)) {
            Region.Landing l = recv.write(0, mine);
            if (block) {
                return new Collective(c -> c.reduceScatterBlock(s, l.buffer, op.builtin),
                        c -> c.ireduceScatterBlock(s, l.buffer, op.builtin), l::land);
            }
            int[] counts = wire(Arrays.copyOf(recvcounts, size), type);
            return new Collective(c -> c.reduceScatter(s, l.buffer, counts, op.builtin),
                    c -> c.ireduceScatter(s, l.buffer, counts, op.builtin), l::land);
        }
        // this package's own reduction: block j of every rank to rank j, folded there in rank order
        int eb = type.elementBytes();
        Buffer image = Buffer.of(Region.image(s));
        int[] sendCounts = new int[size];
        int[] sendDispls = new int[size];
        int[] recvCounts = new int[size];
        int[] recvDispls = new int[size];
        for (int j = 0, at = 0; j < size; j++) {
            sendCounts[j] = recvcounts[j] * eb;
            sendDispls[j] = at;
            at += sendCounts[j];
            recvCounts[j] = mine * eb;
            recvDispls[j] = j * mine * eb;
        }
        Buffer blocks = Buffer.allocate(io.mpirunj.ElementType.BYTE, size * mine * eb);
        boolean nio = isNio(sendbuf, recvbuf);
        return new Collective(c -> c.alltoallv(image, sendCounts, sendDispls, blocks, recvCounts, recvDispls),
                c -> c.ialltoallv(image, sendCounts, sendDispls, blocks, recvCounts, recvDispls), () -> {
                    if (mine > 0) {
                        landImage(Reduce.fold((byte[]) blocks.array(), mine * eb, 0, size, op, type, mine, nio),
                                recv.write(0, mine));
                    }
                });
    }

    /** {@code inOutBuf = inBuf op inOutBuf}, element-wise, on this rank alone (MPI_REDUCE_LOCAL). */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) {
        String call = "reduceLocal";
        Combiner.check(call, op, type);
        MPIException.naming(call, () -> {
            byte[] in = Region.image(Region.of(call, "input", inBuf, type).read(0, count));
            Region r = Region.of(call, "in-out", inOutBuf, type);
            byte[] inOut = Region.image(r.read(0, count));
            Combiner.combine(op, type, in, inOut, count, isNio(inBuf, inOutBuf));
            landImage(inOut, r.write(0, count));
        });
    }

    // ---- scans (used by Intracomm) ----------------------------------------------------------------

    final void scan0(String call, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace,
            boolean exclusive) {
        run(call, prefixOrAll(call, sendbuf, recvbuf, count, type, op, inPlace,
                exclusive ? Span.EXCLUSIVE : Span.INCLUSIVE));
    }

    final Request iScan0(String call, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
            boolean inPlace, boolean exclusive) {
        return start(call, prefixOrAll(call, sendbuf, recvbuf, count, type, op, inPlace,
                exclusive ? Span.EXCLUSIVE : Span.INCLUSIVE));
    }

    @Override
    public String toString() {
        return kind == WORLD ? "COMM_WORLD" : kind == SELF ? "COMM_SELF" : "Comm[" + binding + "]";
    }
}
