package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;

/**
 * Rank args[0] (by {@code OMPI_COMM_WORLD_RANK}, or {@code SLURM_PROCID}, set before {@code Mpi.init}) returns from main without joining
 * the job; the others join it and wait in an allreduce that needs it, so the launcher has to end the job. With args[1]
 * {@code blocks} it never returns: it blocks before {@code Mpi.init} until the launcher ends it, and the others wait
 * in {@code Mpi.init}.
 */
public final class SkipsInit {
    private SkipsInit() {
    }

    public static void main(String[] args) throws InterruptedException {
        String rank = System.getenv("OMPI_COMM_WORLD_RANK");
        if (args[0].equals(rank != null ? rank : System.getenv("SLURM_PROCID"))) { // srun's task id under --srun-rank
            if (args.length > 1 && args[1].equals("blocks")) {
                new java.util.concurrent.CountDownLatch(1).await(); // an event that never comes: the job ends it
            }
            System.out.println("rank " + args[0] + " returns before Mpi.init");
            return;
        }
        Comm world = Mpi.init(args);
        int[] sum = new int[1];
        world.allreduce(Buffer.of(new int[] {1}), Buffer.of(sum), Op.SUM);
        System.out.println("rank " + world.rank() + " still alive");
        Mpi.finish();
    }
}
