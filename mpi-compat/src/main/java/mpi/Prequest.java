package mpi;

/**
 * A persistent request (MPI_SEND_INIT, MPI_RECV_INIT): {@link #start()} posts the operation again
 * each time. Unlike a plain request it stays usable after completing, until freed.
 */
public final class Prequest extends Request {
    /** Posts one round of the operation. */
    interface Starter {
        Request start();
    }

    private final Starter starter;
    private boolean freed;

    Prequest(String call, Starter starter) {
        super(call, null, null);
        this.starter = starter;
    }

    /** Posts the operation (MPI_START). */
    public void start() {
        if (freed) {
            throw new MPIException("Prequest.start: the request has been freed");
        }
        if (active() != null) {
            throw new MPIException("Prequest.start: the request is still active");
        }
        adopt(starter.start());
    }

    /** Posts every request (MPI_STARTALL). */
    public static void startAll(Prequest[] requests) {
        for (Prequest p : requests) {
            p.start();
        }
    }

    @Override
    public void free() {
        freed = true;
        super.free();
    }

    @Override
    public boolean isNull() {
        return freed;
    }
}
