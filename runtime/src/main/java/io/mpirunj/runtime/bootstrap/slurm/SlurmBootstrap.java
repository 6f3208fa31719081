package io.mpirunj.runtime.bootstrap.slurm;

import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.RankDepartures;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts a rank that {@code srun} launched directly ({@link SlurmStep}): task 0 first hosts the
 * step's rendezvous, taking the launcher's part in it (failure and abort notices are relayed to every
 * rank); then every task joins as {@link ProcessBootstrap} joins a launcher's job.
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
            hostRendezvous(step);
        }
        Map<String, String> rankEnv = step.rankEnvironment(env);
        rankEnv.put(JobEnvironment.RENDEZVOUS_WAIT, "1");
        return ProcessBootstrap.start(rankEnv);
    }

    private static void hostRendezvous(SlurmStep step) {
        CountDownLatch left = new CountDownLatch(step.size());
        AtomicBoolean selfLeft = new AtomicBoolean();
        RendezvousServer[] server = new RendezvousServer[1];
        // on the server's event loop, as every listener call
        RankDepartures departures = RankDepartures.withoutProcessExits(step.size());
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
                    public void onAbort(int rank, int exitCode, String reason) {
                        departures.stop(); // the ranks end with the abort's code, not for a departure
                        System.err.println("mpirun-j: rank " + rank + " aborted the job with exit code " + exitCode
                                + (reason.isEmpty() ? "" : ": " + reason));
                        server[0].notifyAbort(exitCode, reason);
                    }

                    @Override
                    public void onRankLost(int rank, String reason) {
                        // the first loss is the job's failure, said once; every loss is relayed, for the calls
                        // that depend on that rank
                        String verdict = departures.closedWithoutGoodbye(rank);
                        if (verdict != null) {
                            reason = verdict + " (" + reason + ")";
                            System.err.println("mpirun-j: rank " + rank + " failed: " + reason);
                        }
                        server[0].notifyRankFailed(rank, reason);
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
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
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
