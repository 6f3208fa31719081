package mpi;

import io.mpirunj.Mpi;
import io.mpirunj.runtime.RankContext;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MPI environment, as in Open MPI's Java bindings: {@link #Init}, {@link #Finalize}, the world and
 * self communicators, the predefined datatypes and operations, and the constants. Pure Java: it runs
 * on mpirun-j's runtime, under {@code mpirun-j} as processes or as threads, with no native library.
 *
 * <p>With ranks as threads, several ranks share this class: {@link #COMM_WORLD} and {@link #COMM_SELF}
 * are the calling rank's (they resolve the rank from the calling thread), and so is everything
 * {@link #Init} and {@link #Finalize} do.
 */
public final class MPI {
    private MPI() {
    }

    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int ANY_SOURCE = io.mpirunj.Comm.ANY_SOURCE;
    public static final int ANY_TAG = io.mpirunj.Comm.ANY_TAG;
    /** A peer that makes sends and receives complete at once with no data. */
    public static final int PROC_NULL = -2;
    public static final int UNDEFINED = io.mpirunj.Comm.UNDEFINED;
    public static final int ROOT = -4;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    /** Keys of {@link Comm#getAttr}. */
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;

    public static final int GRAPH = 1;
    public static final int DIST_GRAPH = 2;
    public static final int CART = 3;

    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_LASTCODE = 92;

    public static final Datatype DATATYPE_NULL = predefined(Datatype.Unit.BYTE, 0, "DATATYPE_NULL");
    public static final Datatype BYTE = predefined(Datatype.Unit.BYTE, 1, "BYTE");
    public static final Datatype CHAR = predefined(Datatype.Unit.CHAR, 1, "CHAR");
    public static final Datatype SHORT = predefined(Datatype.Unit.SHORT, 1, "SHORT");
    public static final Datatype BOOLEAN = predefined(Datatype.Unit.BOOLEAN, 1, "BOOLEAN");
    public static final Datatype INT = predefined(Datatype.Unit.INT, 1, "INT");
    public static final Datatype LONG = predefined(Datatype.Unit.LONG, 1, "LONG");
    public static final Datatype FLOAT = predefined(Datatype.Unit.FLOAT, 1, "FLOAT");
    public static final Datatype DOUBLE = predefined(Datatype.Unit.DOUBLE, 1, "DOUBLE");
    public static final Datatype PACKED = predefined(Datatype.Unit.BYTE, 1, "PACKED");
    /** Two ints (value, index): an {@code int[]} of 2 per element, or 8 bytes of a byte buffer. */
    public static final Datatype INT2 = new Datatype(Datatype.Unit.INT, 2, Datatype.Kind.PAIR, "INT2", true);
    /** Pair structs (value, int index) in byte buffers, in little-endian order, laid out as Open MPI's. */
    public static final Datatype SHORT_INT = new Datatype(Datatype.Unit.SHORT_INT, 1, Datatype.Kind.PAIR, "SHORT_INT",
            true);
    public static final Datatype LONG_INT = new Datatype(Datatype.Unit.LONG_INT, 1, Datatype.Kind.PAIR, "LONG_INT",
            true);
    public static final Datatype FLOAT_INT = new Datatype(Datatype.Unit.FLOAT_INT, 1, Datatype.Kind.PAIR, "FLOAT_INT",
            true);
    public static final Datatype DOUBLE_INT = new Datatype(Datatype.Unit.DOUBLE_INT, 1, Datatype.Kind.PAIR,
            "DOUBLE_INT", true);
    /** Complex numbers: (real, imaginary) pairs in a {@code float[]} or {@code double[]}. */
    public static final Datatype FLOAT_COMPLEX = new Datatype(Datatype.Unit.FLOAT, 2, Datatype.Kind.COMPLEX,
            "FLOAT_COMPLEX", true);
    public static final Datatype DOUBLE_COMPLEX = new Datatype(Datatype.Unit.DOUBLE, 2, Datatype.Kind.COMPLEX,
            "DOUBLE_COMPLEX", true);

    public static final Op MAX = new Op("MAX");
    public static final Op MIN = new Op("MIN");
    public static final Op SUM = new Op("SUM");
    public static final Op PROD = new Op("PROD");
    public static final Op LAND = new Op("LAND");
    public static final Op BAND = new Op("BAND");
    public static final Op LOR = new Op("LOR");
    public static final Op BOR = new Op("BOR");
    public static final Op LXOR = new Op("LXOR");
    public static final Op BXOR = new Op("BXOR");
    public static final Op MINLOC = new Op("MINLOC");
    public static final Op MAXLOC = new Op("MAXLOC");

    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_RETURN = new Errhandler("ERRORS_RETURN");

    public static final Request REQUEST_NULL = new Request("REQUEST_NULL", null, null);
    public static final Group GROUP_EMPTY = new Group(new int[0]);

    /** The calling rank's world communicator. */
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD, null);
    /** The calling rank alone. */
    public static final Intracomm COMM_SELF = new Intracomm(Comm.SELF, null);

    /** Each initialized rank's world and self communicators, by its runtime world communicator. */
    private static final Map<io.mpirunj.Comm, RankState> RANKS = new ConcurrentHashMap<>();

    /** What {@link #Init} made for one rank. */
    static final class RankState {
        final Binding world;
        final Binding self;

        RankState(Binding world, Binding self) {
            this.world = world;
            this.self = self;
        }
    }

    private static Datatype predefined(Datatype.Unit unit, int units, String name) {
        return new Datatype(unit, units, Datatype.Kind.PLAIN, name, true);
    }

    /**
     * Joins the job (MPI_INIT): under {@code mpirun-j} the rank finds its job; run alone, it is a job
     * of one rank. Collective over the world (it makes COMM_SELF). Returns {@code args} unchanged.
     */
    public static String[] Init(String[] args) {
        io.mpirunj.Comm world = MPIException.naming("MPI.Init", () -> Mpi.init(args));
        if (RANKS.containsKey(world)) {
            throw new MPIException("MPI.Init: MPI is already initialized");
        }
        MPIException.naming("MPI.Init", () -> {
            Binding w = new Binding(world, "MPI_COMM_WORLD");
            Binding s = new Binding(world.split(world.rank(), 0), "MPI_COMM_SELF");
            RANKS.put(world, new RankState(w, s));
        });
        return args;
    }

    /** {@link #Init} with a thread level; every level up to THREAD_MULTIPLE is provided as asked. */
    public static int InitThread(String[] args, int required) {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw new MPIException("MPI.InitThread: required=" + required + " (expected: THREAD_SINGLE .. "
                    + "THREAD_MULTIPLE)", null, ERR_ARG);
        }
        Init(args);
        return required;
    }

    /** THREAD_MULTIPLE: point-to-point may be used from any thread (one collective per communicator at a time). */
    public static int queryThread() {
        worldComm("MPI.queryThread");
        return THREAD_MULTIPLE;
    }

    /** True on the thread that initialized this rank, or on any thread of a process rank. */
    public static boolean isThreadMain() {
        worldComm("MPI.isThreadMain");
        return true;
    }

    /**
     * Leaves the job (MPI_FINALIZE): waits for every rank, then closes this rank's connections.
     * Collective over the world.
     */
    public static void Finalize() {
        io.mpirunj.Comm world = worldComm("MPI.Finalize");
        RankState s = RANKS.remove(world);
        if (s == null) {
            throw new MPIException("MPI.Finalize: MPI is not initialized (or already finalized) on this rank");
        }
        s.self.free(false);
        s.world.free(true);
        MPIException.naming("MPI.Finalize", Mpi::finish);
    }

    public static boolean isInitialized() {
        return Mpi.isInitialized();
    }

    public static boolean isFinalized() {
        RankContext c = RankContext.current();
        return c != null && c.isFinished();
    }

    /** Seconds since an arbitrary origin (MPI_WTIME). */
    public static double wtime() {
        return System.nanoTime() / 1e9;
    }

    /** The resolution of {@link #wtime()}: a nanosecond. */
    public static double wtick() {
        return 1e-9;
    }

    public static String getProcessorName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** Profiling control: nothing to do. */
    public static void pControl(int level, Object obj) {
    }

    /** The calling rank's runtime world communicator. */
    static io.mpirunj.Comm worldComm(String call) {
        RankContext c = RankContext.current();
        if (c == null || !c.isInitialized()) {
            throw new MPIException(call + ": MPI is not initialized (call MPI.Init first)");
        }
        return c.world();
    }

    /** The calling rank's state made by {@link #Init}. */
    static RankState rank(String call) {
        RankState s = RANKS.get(worldComm(call));
        if (s == null) {
            throw new MPIException(call + ": MPI is not initialized through MPI.Init on this rank, or is finalized");
        }
        return s;
    }

    // ---- direct buffers and slices ----------------------------------------------------------------

    /** A direct byte buffer in native order. */
    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asDoubleBuffer();
    }

    /**
     * The part of {@code buf} from index {@code offset} on, sharing its memory. Unlike Open MPI's,
     * this leaves {@code buf}'s position alone.
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset).order(buf.order());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset);
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset);
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset);
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset);
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset);
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.slice(offset, buf.capacity() - offset);
    }

    /** A buffer over {@code buf} from index {@code offset} on (a heap buffer; usable in every call here). */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
