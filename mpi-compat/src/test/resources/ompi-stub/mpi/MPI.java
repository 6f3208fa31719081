package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;

// Stub of Open MPI 4.1's mpi.MPI (from its javadoc). The constants are assigned in a static block,
// as Open MPI's are, so compiled programs read them from the class at run time.
public final class MPI {
    public static final Intracomm COMM_WORLD, COMM_SELF;
    public static final int THREAD_SINGLE, THREAD_FUNNELED, THREAD_SERIALIZED, THREAD_MULTIPLE;
    public static final int ANY_SOURCE, ANY_TAG, PROC_NULL, UNDEFINED;
    public static final int IDENT, CONGRUENT, SIMILAR, UNEQUAL;
    public static final Op MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC;
    public static final Datatype BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, PACKED,
            FLOAT_COMPLEX, DOUBLE_COMPLEX, INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT;
    public static final Request REQUEST_NULL;
    public static final Group GROUP_EMPTY;

    static {
        COMM_WORLD = null; COMM_SELF = null;
        THREAD_SINGLE = 0; THREAD_FUNNELED = 0; THREAD_SERIALIZED = 0; THREAD_MULTIPLE = 0;
        ANY_SOURCE = 0; ANY_TAG = 0; PROC_NULL = 0; UNDEFINED = 0;
        IDENT = 0; CONGRUENT = 0; SIMILAR = 0; UNEQUAL = 0;
        MAX = null; MIN = null; SUM = null; PROD = null; LAND = null; BAND = null; LOR = null; BOR = null;
        LXOR = null; BXOR = null; MINLOC = null; MAXLOC = null;
        BYTE = null; CHAR = null; SHORT = null; BOOLEAN = null; INT = null; LONG = null; FLOAT = null;
        DOUBLE = null; PACKED = null; FLOAT_COMPLEX = null; DOUBLE_COMPLEX = null; INT2 = null; SHORT_INT = null;
        LONG_INT = null; FLOAT_INT = null; DOUBLE_INT = null;
        REQUEST_NULL = null; GROUP_EMPTY = null;
    }

    private MPI() { }

    public static String[] Init(String[] args) throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static int InitThread(String[] args, int required) throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static int queryThread() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static void Finalize() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static double wtime() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static double wtick() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static String getProcessorName() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static boolean isInitialized() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static boolean isFinalized() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static ByteBuffer newByteBuffer(int capacity) { throw new UnsupportedOperationException("stub"); }
    public static IntBuffer newIntBuffer(int capacity) { throw new UnsupportedOperationException("stub"); }
    public static DoubleBuffer newDoubleBuffer(int capacity) { throw new UnsupportedOperationException("stub"); }
    public static IntBuffer slice(IntBuffer buf, int offset) { throw new UnsupportedOperationException("stub"); }
    public static IntBuffer slice(int[] buf, int offset) { throw new UnsupportedOperationException("stub"); }
}
