package mpi;

import java.nio.ByteBuffer;

// Stub of Open MPI 4.1's mpi.UserFunction (from its javadoc).
public abstract class UserFunction {
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("stub");
    }

    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("stub");
    }
}
