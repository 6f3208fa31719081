package io.mpirunj;

import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.slurm.SlurmBootstrap;
import io.mpirunj.runtime.bootstrap.slurm.SlurmStep;
import io.mpirunj.runtime.local.LocalJob;
import java.util.Map;

/**
 * The entry point of an SPMD program:
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     Comm world = Mpi.init(args);
 *     System.out.println("Hello from rank " + world.rank() + " of " + world.size());
 *     Mpi.finish();
 * }
 * }</pre>
 *
 * Under {@code mpirun-j} each rank (process or thread) finds its job; run directly, a program is a
 * job of one rank (MPI's singleton init).
 */
public final class Mpi {
    private Mpi() {
    }

    /**
     * Joins the job and returns the world communicator. Calling it again returns the same one; calling it after
     * {@link #finish} throws (a rank joins the job once, as MPI_Init may not follow MPI_Finalize).
     */
    public static Comm init(String[] args) {
        RankContext c = RankContext.current();
        if (c == null) {
            c = startProcessRank();
        }
        if (c.isFinished()) {
            throw new MpiException("Mpi.init after Mpi.finish: a rank joins the job once (as MPI_Init may not "
                    + "follow MPI_Finalize)");
        }
        c.markInitialized();
        return c.world();
    }

    private static synchronized RankContext startProcessRank() {
        RankContext c = RankContext.current();
        if (c != null) {
            return c;
        }
        Map<String, String> env = System.getenv();
        if (ProcessBootstrap.isLaunched(env)) {
            c = ProcessBootstrap.start(env);
        } else if (SlurmStep.isDirectLaunch(env)) {
            c = SlurmBootstrap.start(env);
        } else {
            c = new LocalJob(1, RuntimeConfig.from(env), JobControl.SINGLETON).context(0);
        }
        RankContext.setProcessContext(c);
        return c;
    }

    /** The world communicator of the calling rank. */
    public static Comm world() {
        RankContext c = RankContext.current();
        if (c == null) {
            throw new MpiException("Mpi.init(args) has not been called");
        }
        return c.world();
    }

    /** True once this rank has called {@link #init}. */
    public static boolean isInitialized() {
        RankContext c = RankContext.current();
        return c != null && c.isInitialized();
    }

    /**
     * Leaves the job (MPI_Finalize): waits for every rank to arrive, then closes this rank's
     * connections. Collective over the world. Every rank that called {@link #init} must call it before its
     * main returns: under {@code mpirun-j}, a rank whose main returns without it fails the job (as a program
     * that ends without MPI_Finalize fails Open MPI's), since the other ranks may still wait for it.
     */
    public static void finish() {
        RankContext c = RankContext.current();
        if (c == null) {
            throw new MpiException("Mpi.finish() without Mpi.init(args)");
        }
        c.finish();
    }
}
