package mpi;

import java.nio.Buffer;

// Stub of Open MPI 4.1's mpi.Intracomm (from its javadoc).
public class Intracomm extends Comm {
    protected Intracomm() { }

    private static UnsupportedOperationException stub() { return new UnsupportedOperationException("stub"); }

    @Override public Intracomm clone() { throw stub(); }
    @Override public Intracomm dup() throws MPIException { throw stub(); }
    public final Intracomm split(int colour, int key) throws MPIException { throw stub(); }
    public final Intracomm create(Group group) throws MPIException { throw stub(); }
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException { throw stub(); }
    public final void scan(Object buf, int count, Datatype type, Op op) throws MPIException { throw stub(); }
    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException { throw stub(); }
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException { throw stub(); }
}
