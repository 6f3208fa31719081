package io.mpirunj.runtime.bootstrap.slurm;

import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.RankDepartures;
import io.mpirunj.runtime.bootstrap.RendezvousClient;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts a rank that {@code srun} launched directly ({@link SlurmStep}): task 0 first hosts the
 * step's rendezvous (from its program's start, {@link #beforeProgram}), taking the launcher's part in it
 * (failure and abort notices are relayed to every rank); then every task joins as {@link ProcessBootstrap}
 * joins a launcher's job. A task that ends without joining says so at its exit, and the job fails at once.
 *
 * <p>Failure semantics are those of a launched job: a rank that dies or exits without leaving the job
 * fails, on the others, every call that depends on it ({@code RankFailedException} naming it), and task 0
 * says why in one line, judged as the launcher judges ({@link RankDepartures}, from the rendezvous alone:
 * no task sees another's exit status); an abort ends every rank with its code. Ending the step is Slurm's: with {@code srun -K1}
 * ({@code --kill-on-bad-exit}, or {@code KillOnBadExit=1} in {@code slurm.conf}) the first task to exit
 * non-zero ends the others at once. If task 0 dies, the others lose the rendezvous and halt, as ranks
 * do whose launcher vanished.
 */
public final class SlurmBootstrap {
    /**
     * How long task 0 keeps the rendezvous open at exit for the other ranks to leave. Normally they
     * leave within milliseconds of it (finishing is collective); the bound only matters on a badly
     * overloaded node, where a rank that loses its rendezvous before saying goodbye exits 1.
     */
    static final long LINGER_MS = 60_000;

    /**
     * How long a task that ends without joining the job retries a refused connection to task 0's rendezvous, to say
     * so: task 0 listens from its program's start ({@link #beforeProgram}), so a refusal past this means it is not
     * coming (it ended too, or never started), and the task ends without its word.
     */
    static final int LEAVING_RETRY_MS = 5_000;

    /** Whether this process (task 0) hosts the step's rendezvous already. */
    private static boolean hosting;

    private SlurmBootstrap() {
    }

    /**
     * Joins the Slurm step described by {@code env}.
     *
     * @throws IllegalArgumentException if the step's variables are missing or malformed (one line)
     */
    public static RankContext start(Map<String, String> env) {
        SlurmStep step = SlurmStep.from(env);
        if (step.rank() == 0) {
            hostRendezvousOnce(step);
        }
        Map<String, String> rankEnv = step.rankEnvironment(env);
        rankEnv.put(JobEnvironment.RENDEZVOUS_WAIT, "1");
        return ProcessBootstrap.start(rankEnv);
    }

    /**
     * Before a task's program runs: task 0 hosts the step's rendezvous at once, and every task, should it end
     * without having joined the job (its program returned, threw or called System.exit before Mpi.init, or Mpi.init
     * failed before it registered), says so to the rendezvous as its JVM exits. Task 0 sees no other task's exit, so
     * without that word the tasks that joined would wait for it until their rendezvous timed out. Never throws: a
     * step that cannot be read or hosted now is reported by Mpi.init, as without this.
     */
    public static void beforeProgram(Map<String, String> env) {
        SlurmStep step;
        try {
            step = SlurmStep.from(env);
            if (step.rank() == 0) {
                hostRendezvousOnce(step);
            }
        } catch (RuntimeException e) {
            return; // Mpi.init says what is wrong
        }
        if (step.rank() != 0) { // task 0 says it in its rendezvous's own exit hook, before the rendezvous closes
            Runtime.getRuntime().addShutdownHook(new Thread(() -> sayLeavingIfNeverJoined(step),
                    "mpirunj-slurm-leaving"));
        }
    }

    /** At the task's exit: if it never joined the job, tells task 0's rendezvous so. */
    private static void sayLeavingIfNeverJoined(SlurmStep step) {
        if (RankContext.current() == null) {
            RendezvousClient.sayLeavingBeforeJoining(new InetSocketAddress(step.nodes().get(0), step.rendezvousPort()),
                    step.token(), step.rank(), step.size(), LEAVING_RETRY_MS);
        }
    }

    private static synchronized void hostRendezvousOnce(SlurmStep step) {
        if (!hosting) {
            hostRendezvous(step);
            hosting = true;
        }
    }

    private static void hostRendezvous(SlurmStep step) {
        CountDownLatch left = new CountDownLatch(step.size());
        AtomicBoolean selfLeft = new AtomicBoolean();
        RendezvousServer[] server = new RendezvousServer[1];
        // on the server's event loop, as every listener call; a failure before every rank joined also tells the
        // ranks waiting for the address table that the job cannot start
        RankDepartures departures = RankDepartures.withoutProcessExits(step.size(), (rank, reason) -> {
            System.err.println("mpirun-j: rank " + rank + " failed: " + reason);
            server[0].failStart(rank, reason);
        });
        server[0] = new RendezvousServer(step.size(), step.token(), "0.0.0.0", step.rendezvousPort(),
                new RendezvousServer.Listener() {
                    @Override
                    public void onAllRegistered() {
                    }

                    @Override
                    public void onRankRegistered(int rank) {
                        departures.registered(rank);
                    }

                    @Override
                    public void onRankLeftBeforeJoining(int rank) {
                        departures.endedBeforeJoining(rank);
                        left.countDown();
                    }

                    @Override
                    public void onAbort(int rank, int exitCode, String reason) {
                        departures.stop(); // the ranks end with the abort's code, not for a departure
                        System.err.println("mpirun-j: rank " + rank + " aborted the job with exit code " + exitCode
                                + (reason.isEmpty() ? "" : ": " + reason));
                        server[0].notifyAbort(exitCode, reason);
                    }

                    @Override
                    public void onRankLost(int rank, String reason) {
                        // the first loss is the job's failure, said once (by the verdict); every loss is relayed,
                        // for the calls that depend on that rank
                        String verdict = departures.closedWithoutGoodbye(rank);
                        server[0].notifyRankFailed(rank, verdict != null ? verdict + " (" + reason + ")" : reason);
                        left.countDown();
                    }

                    @Override
                    public void onFinishFence(int rank) {
                        departures.reachedFinish(rank);
                    }

                    @Override
                    public void onRankFinished(int rank) {
                        departures.finished(rank);
                        if (rank == 0) {
                            selfLeft.set(true);
                        }
                        left.countDown();
                    }
                });
        // At a clean exit, give the other ranks time to say goodbye before their rendezvous goes away.
        // Killed mid-job (srun -K, scancel: rank 0 never left the job), close at once: the others fail.
        // Ended without joining: say so first, so that the ranks waiting for the table hear why.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                sayLeavingIfNeverJoined(step);
                if (selfLeft.get()) {
                    left.await(LINGER_MS, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server[0].close();
        }, "mpirunj-slurm-rendezvous"));
    }
}
