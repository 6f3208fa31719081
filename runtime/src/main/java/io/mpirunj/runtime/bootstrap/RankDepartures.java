package io.mpirunj.runtime.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Judges how each rank left the job, for whoever hosts the rendezvous: the launcher, for ranks on its host and on
 * other hosts, and task 0 of a Slurm step launched directly by {@code srun}. A rank that ended with status 0 after
 * its goodbye ({@code Mpi.finish}) is fine; one that joined the job and ended without leaving it ({@code System.exit}
 * in the middle of the job), or that ended before joining it while other ranks joined, fails the job, as Open MPI's
 * {@code mpirun} does: the other ranks would otherwise wait for it forever (in {@code Mpi.init}, or in their next
 * call with it). A goodbye on its way is never taken for a failure: a rank that joined is judged only once its
 * control connection has closed, and the server reports a goodbye before the close of the connection it came on.
 *
 * <p>Fed the rendezvous server's events ({@link #registered}, {@link #reachedFinish}, {@link #finished},
 * {@link #closedWithoutGoodbye}) and, where the host sees the rank processes end, their exits with status 0
 * ({@link #exitedWithZero}); a non-zero exit fails the job by itself and is the host's to report.
 * {@link #withoutProcessExits} judges from the rendezvous alone (Slurm's task 0 sees no other task's exit): a control
 * connection that closes without a goodbye fails the job at once, and a task that ends without joining says so
 * ({@link #endedBeforeJoining}). Once every rank is in Mpi.finish's fence, a rank that ends before its goodbye fails
 * nothing: no rank waits for it any more (a non-zero exit still fails the job, as the host reports it).
 *
 * <p>Confined to one thread (the launcher's supervisor, or the rendezvous server's event loop): every method and
 * the {@link Verdict} run on it.
 */
public final class RankDepartures {
    /**
     * How long after a rank's process ended with status 0 the judge waits for a registration it may have sent just
     * before (the server reads it on its own thread) before it takes the rank as never registered.
     */
    public static final long REGISTRATION_GRACE_MS = 2_000;

    /**
     * What the judge decided: {@code rank} fails the job, for {@code reason} (one line naming the rank). Called at
     * most once: the first failure is the job's.
     */
    @FunctionalInterface
    public interface Verdict {
        void fail(int rank, String reason);
    }

    private final ScheduledExecutorService scheduler;
    private final Verdict verdict;
    private final boolean[] registered;
    private final boolean[] inFinish;
    private int inFinishCount;
    private final boolean[] saidGoodbye;
    private final boolean[] lostWithoutGoodbye;
    private final boolean[] exitedWithZero;
    private boolean anyRegistered;
    /** A rank that ended with status 0 before it called Mpi.init while no rank had yet: -1 if none. */
    private int exitedBeforeInit = -1;
    private boolean stopped;

    private RankDepartures(int size, ScheduledExecutorService scheduler, Verdict verdict) {
        this.scheduler = scheduler;
        this.verdict = verdict;
        this.registered = new boolean[size];
        this.inFinish = new boolean[size];
        this.saidGoodbye = new boolean[size];
        this.lostWithoutGoodbye = new boolean[size];
        this.exitedWithZero = new boolean[size];
    }

    /**
     * A judge for a host that sees the rank processes end; {@code scheduler} runs on the judge's thread (it waits
     * out {@link #REGISTRATION_GRACE_MS} there).
     */
    public static RankDepartures withProcessExits(int size, ScheduledExecutorService scheduler, Verdict verdict) {
        return new RankDepartures(size, scheduler, verdict);
    }

    /**
     * A judge for a host that sees only the rendezvous (Slurm's task 0): it judges in {@link #closedWithoutGoodbye}
     * (which also returns its verdict), and in {@link #endedBeforeJoining} and {@link #registered}, from the word of a
     * task that ends without joining. Its verdicts name the rank only as the argument: the host prefixes it.
     */
    public static RankDepartures withoutProcessExits(int size, Verdict verdict) {
        return new RankDepartures(size, null, verdict);
    }

    /** The job is ending for another reason (a failure, an abort, the timeout): judge nothing more. */
    public void stop() {
        stopped = true;
    }

    /** The ranks that have not joined the job (called Mpi.init), ascending. */
    public List<Integer> notJoined() {
        List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < registered.length; r++) {
            if (!registered[r]) {
                ranks.add(r);
            }
        }
        return ranks;
    }

    /** {@code rank} joined the job (called Mpi.init). */
    public void registered(int rank) {
        registered[rank] = true;
        anyRegistered = true;
        if (exitedBeforeInit >= 0) {
            failEndedBeforeInit(exitedBeforeInit);
        }
    }

    /**
     * {@code rank}, which never registered, says it is ending without joining the job (a Slurm task's word, from a
     * judge without process exits). It fails the job if another rank has joined, or once one does.
     */
    public void endedBeforeJoining(int rank) {
        if (registered[rank] || stopped) {
            return; // a rank that joined is judged by its connection's close
        }
        if (anyRegistered) {
            failEndedBeforeInit(rank);
        } else if (exitedBeforeInit < 0) {
            exitedBeforeInit = rank; // judged when another rank joins; if none does, no rank used MPI
        }
    }

    /** {@code rank} called Mpi.finish and waits in its fence for the other ranks. */
    public void reachedFinish(int rank) {
        if (!inFinish[rank]) {
            inFinish[rank] = true;
            inFinishCount++;
        }
    }

    /** {@code rank} said goodbye (Mpi.finish). */
    public void finished(int rank) {
        saidGoodbye[rank] = true;
    }

    /**
     * {@code rank}'s control connection closed without its goodbye.
     *
     * @return the reason the job fails for, when this judged it so now (also given to the verdict), else null
     */
    public String closedWithoutGoodbye(int rank) {
        lostWithoutGoodbye[rank] = true;
        return scheduler == null || exitedWithZero[rank] ? failLeftWithoutFinish(rank) : null;
    }

    /**
     * {@code rank}'s process ended with status 0. Whether it left is only known once its control connection has
     * closed, so a rank that joined is judged then ({@link #closedWithoutGoodbye}); one that never joined, a moment
     * later, in case its registration was on its way.
     */
    public void exitedWithZero(int rank) {
        if (saidGoodbye[rank] || stopped) {
            return;
        }
        exitedWithZero[rank] = true;
        if (registered[rank]) {
            judgeLeft(rank);
            return;
        }
        scheduler.schedule(() -> {
            if (registered[rank]) {
                judgeLeft(rank); // its registration was on its way
            } else if (anyRegistered) {
                failEndedBeforeInit(rank);
            } else if (exitedBeforeInit < 0) {
                exitedBeforeInit = rank; // judged when another rank joins; if none does, no rank used MPI
            }
        }, REGISTRATION_GRACE_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * A rank that joined the job and ended with status 0 failed it if its control connection closed without its
     * goodbye; if the connection has not closed yet, its close decides.
     */
    private void judgeLeft(int rank) {
        if (lostWithoutGoodbye[rank]) {
            failLeftWithoutFinish(rank);
        }
    }

    private String failLeftWithoutFinish(int rank) {
        if (inFinishCount == inFinish.length) {
            return null; // every rank was in the fence: the rest of Mpi.finish needs no other rank
        }
        if (inFinish[rank]) {
            // it was waiting in Mpi.finish for the other ranks, so they have calls with it still to complete
            return fail(rank, (scheduler != null
                    ? "rank " + rank + " exited with status 0 inside Mpi.finish, before every rank had reached it "
                            + "(System.exit on another thread?)"
                    : "it ended inside Mpi.finish, before every rank had reached it (killed, or System.exit on another "
                            + "thread)") + ": the ranks still working cannot complete with it");
        }
        if (scheduler != null) {
            return fail(rank, "rank " + rank + " exited with status 0 without calling Mpi.finish (e.g. System.exit "
                    + "in the middle of the job): the other ranks cannot complete with it");
        } else if (!anyMissing()) {
            // the rank's exit status is not seen here: it may also have been killed or have thrown (its trace says);
            // a judge without process exits words its verdict without the rank, for the host to prefix
            return fail(rank, "it ended without calling Mpi.finish (System.exit in the middle of the job, an exception, or "
                    + "killed): the other ranks cannot complete with it");
        } else {
            // a task that ends before Mpi.init says so (endedBeforeJoining), unless it was killed: then only the
            // others giving up their wait for it show here
            return fail(rank, "it ended without calling Mpi.finish while " + missing() + " had not joined the job (a rank "
                    + "killed before it calls Mpi.init leaves the others waiting until the rendezvous times out)");
        }
    }

    private void failEndedBeforeInit(int rank) {
        fail(rank, scheduler != null
                ? "rank " + rank + " exited with status 0 before calling Mpi.init, while other ranks called it: they "
                        + "cannot start without it"
                : "it ended without joining the job (its program ended before Mpi.init, Mpi.init failed, or it was "
                        + "stopped), while other ranks joined: they cannot start without it");
    }

    /** The job's failure, once: {@code reason}, or null when it has already failed or stopped. */
    private String fail(int rank, String reason) {
        if (stopped) {
            return null;
        }
        stopped = true;
        verdict.fail(rank, reason);
        return reason;
    }

    private boolean anyMissing() {
        for (boolean r : registered) {
            if (!r) {
                return true;
            }
        }
        return false;
    }

    /** The ranks that have not registered, e.g. {@code ranks 2, 5}. */
    private String missing() {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (int r = 0; r < registered.length; r++) {
            if (!registered[r]) {
                sb.append(n++ == 0 ? "" : ", ").append(r);
            }
        }
        return (n == 1 ? "rank " : "ranks ") + sb;
    }
}
