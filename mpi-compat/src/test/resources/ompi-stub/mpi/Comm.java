package mpi;

import java.nio.Buffer;

// Stub of Open MPI 4.1's mpi.Comm (from its javadoc): the calls the test program makes.
public class Comm implements Freeable, Cloneable {
    protected Comm() { }

    private static UnsupportedOperationException stub() { return new UnsupportedOperationException("stub"); }

    @Override public Comm clone() { throw stub(); }
    public Comm dup() throws MPIException { throw stub(); }
    public final int getSize() throws MPIException { throw stub(); }
    public final int getRank() throws MPIException { throw stub(); }
    public static int compare(Comm comm1, Comm comm2) throws MPIException { throw stub(); }
    @Override public void free() throws MPIException { throw stub(); }
    public final boolean isNull() { throw stub(); }
    public final Group getGroup() throws MPIException { throw stub(); }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException { throw stub(); }
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException { throw stub(); }
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
            Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException { throw stub(); }
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
            int recvtag) throws MPIException { throw stub(); }
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException { throw stub(); }
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException { throw stub(); }
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException { throw stub(); }
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException { throw stub(); }
    public final Status probe(int source, int tag) throws MPIException { throw stub(); }
    public final Status iProbe(int source, int tag) throws MPIException { throw stub(); }

    public final void barrier() throws MPIException { throw stub(); }
    public final Request iBarrier() throws MPIException { throw stub(); }
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException { throw stub(); }
    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException { throw stub(); }
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException { throw stub(); }
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException { throw stub(); }
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root) throws MPIException { throw stub(); }
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException { throw stub(); }
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root) throws MPIException { throw stub(); }
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException { throw stub(); }
    public final void allGather(Object buf, int count, Datatype type) throws MPIException { throw stub(); }
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype) throws MPIException { throw stub(); }
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException { throw stub(); }
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException { throw stub(); }
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException { throw stub(); }
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException { throw stub(); }
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException { throw stub(); }
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException { throw stub(); }
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException { throw stub(); }
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException { throw stub(); }
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException { throw stub(); }
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException { throw stub(); }
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
            throws MPIException { throw stub(); }
}
