package io.mpirunj.runtime.bootstrap.slurm;

import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.RankDepartures;
import io.mpirunj.runtime.bootstrap.RendezvousClient;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
     * For how long from its program's start a task that ends without joining the job retries a refused connection to
     * task 0's rendezvous, to say so: task 0 listens from its own program's start ({@link #beforeProgram}), so a
     * refusal later means it is gone (it ended too, or never started), and the task ends at once without its word.
     */
    static final int LEAVING_RETRY_MS = 5_000;

    /** Whether this process (task 0) hosts the step's rendezvous already. */
    private static boolean hosting;
    /**
     * Whether this task has tried to join (Mpi.init reached the rendezvous): then the rendezvous knows of it, or it
     * never reached it, and its word would be ignored or refused.
     */
    private static volatile boolean joining;

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
            hostRendezvousOnce(step, System.nanoTime());
        }
        Map<String, String> rankEnv = step.rankEnvironment(env);
        rankEnv.put(JobEnvironment.RENDEZVOUS_WAIT, "1");
        joining = true;
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
        long retryUntilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEAVING_RETRY_MS);
        SlurmStep step;
        try {
            step = SlurmStep.from(env);
            if (step.rank() == 0) {
                hostRendezvousOnce(step, retryUntilNs);
            }
        } catch (RuntimeException e) {
            return; // Mpi.init says what is wrong
        }
        if (step.rank() != 0) { // task 0 says it in its rendezvous's own exit hook, before the rendezvous closes
            Runtime.getRuntime().addShutdownHook(new Thread(() -> sayLeavingIfNeverJoined(step, retryUntilNs),
                    "mpirunj-slurm-leaving"));
        }
    }

    /** At the task's exit: if it never tried to join the job, tells task 0's rendezvous so. */
    private static void sayLeavingIfNeverJoined(SlurmStep step, long retryUntilNs) {
        if (!joining) {
            int retryMs = (int) Math.max(0, TimeUnit.NANOSECONDS.toMillis(retryUntilNs - System.nanoTime()));
            RendezvousClient.sayLeavingBeforeJoining(new InetSocketAddress(step.nodes().get(0), step.rendezvousPort()),
                    step.token(), step.rank(), step.size(), retryMs);
        }
    }

    /** {@code retryUntilNs}: how long task 0's own word that it never joined may retry (see {@link #beforeProgram}). */
    private static synchronized void hostRendezvousOnce(SlurmStep step, long retryUntilNs) {
        if (!hosting) {
            hostRendezvous(step, retryUntilNs);
            hosting = true;
        }
    }

    private static void hostRendezvous(SlurmStep step, long retryUntilNs) {
        CountDownLatch left = new CountDownLatch(step.size());
        AtomicBoolean selfLeft = new AtomicBoolean();
        // the listener may run before the constructor has returned (a rank registers at once)
        CompletableFuture<RendezvousServer> serverReady = new CompletableFuture<>();
        // on the server's event loop, as every listener call; a failure before every rank joined also tells the
        // ranks waiting for the address table that the job cannot start
        RankDepartures departures = RankDepartures.withoutProcessExits(step.size(), (rank, reason) -> {
            System.err.println("mpirun-j: rank " + rank + " failed: " + reason);
            serverReady.thenAccept(s -> s.failStart(rank, reason));
        });
        RendezvousServer server = new RendezvousServer(step.size(), step.token(), "0.0.0.0", step.rendezvousPort(),
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
                        serverReady.thenAccept(s -> s.notifyAbort(exitCode, reason));
                    }

                    @Override
                    public void onRankLost(int rank, String reason) {
                        // the first loss is the job's failure, said once (by the verdict); every loss is relayed,
                        // for the calls that depend on that rank
                        String verdict = departures.closedWithoutGoodbye(rank);
                        String why = verdict != null ? verdict + " (" + reason + ")" : reason;
                        serverReady.thenAccept(s -> s.notifyRankFailed(rank, why));
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
                sayLeavingIfNeverJoined(step, retryUntilNs);
                if (selfLeft.get()) {
                    left.await(LINGER_MS, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.close();
        }, "mpirunj-slurm-rendezvous"));
        serverReady.complete(server);
    }
}
