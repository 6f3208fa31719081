package io.mpirunj.runtime.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one judge of how ranks leave a job ({@link RankDepartures}), as the launcher (rank processes on this host and
 * others: their exits are seen) and Slurm's task 0 (the rendezvous alone) use it. Every call runs on one thread, as
 * there; the registration grace is not waited for here (a rank that joined is judged without it).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RankDeparturesTest {
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final List<String> verdicts = new ArrayList<>();
    private final List<Integer> failedRanks = new ArrayList<>();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    private void on(Runnable r) throws Exception {
        thread.submit(r).get();
    }

    private RankDepartures withExits() {
        return RankDepartures.withProcessExits(3, thread, (rank, reason) -> verdicts.add(reason));
    }

    @Test
    void aRankThatExitsZeroAndThenLosesItsConnectionFailsTheJobOnce() throws Exception {
        RankDepartures d = withExits();
        on(() -> {
            d.registered(0);
            d.registered(1);
            d.registered(2);
            d.exitedWithZero(1);
            d.closedWithoutGoodbye(1);
            d.closedWithoutGoodbye(2); // a consequence: not said again
            d.exitedWithZero(2);
        });
        assertEquals(List.of("rank 1 exited with status 0 without calling Mpi.finish (e.g. System.exit in the middle "
                + "of the job): the other ranks cannot complete with it"), verdicts);
    }

    @Test
    void theConnectionMayCloseBeforeTheExitIsSeen() throws Exception {
        RankDepartures d = withExits();
        on(() -> {
            d.registered(0);
            d.registered(2);
            d.closedWithoutGoodbye(2); // not yet judged: it may have been killed (its exit status says)
        });
        assertEquals(List.of(), verdicts);
        on(() -> d.exitedWithZero(2));
        assertEquals(1, verdicts.size(), verdicts::toString);
        assertEquals(true, verdicts.get(0).startsWith("rank 2 exited with status 0 without calling Mpi.finish"));
    }

    @Test
    void aRankThatSaidGoodbyeIsNeverAFailure() throws Exception {
        RankDepartures d = withExits();
        on(() -> {
            registerAll(d, 3);
            d.exitedWithZero(0); // its goodbye is on its way: the close after it decides
            d.finished(0);
            d.finished(1);
            d.exitedWithZero(1);
            d.finished(2);
        });
        assertEquals(List.of(), verdicts);
    }

    @Test
    void fromTheRendezvousAloneAConnectionClosedWithoutGoodbyeFailsTheJob() throws Exception {
        RankDepartures d = withoutExits(3);
        on(() -> {
            registerAll(d, 3);
            d.finished(0);
            lost(d, 1);
            lost(d, 2);
        });
        // the host prefixes the rank (it sees no exit status: the words say what may have happened)
        assertEquals(List.of("it ended without calling Mpi.finish (System.exit in the middle of the job, an exception, "
                + "or killed): the other ranks cannot complete with it"), verdicts);
    }

    /** A rank that reached Mpi.finish's fence and then ended: the verdict says where it was, not "without Mpi.finish". */
    @Test
    void aRankThatEndsInsideMpiFinishIsSaidToHaveEndedThere() throws Exception {
        RankDepartures slurm = withoutExits(3);
        on(() -> {
            registerAll(slurm, 3);
            slurm.reachedFinish(1);
            lost(slurm, 1);
        });
        RankDepartures launcher = withExits();
        on(() -> {
            registerAll(launcher, 3);
            launcher.reachedFinish(2);
            launcher.exitedWithZero(2);
            launcher.closedWithoutGoodbye(2);
        });
        assertEquals(List.of("it ended inside Mpi.finish, before every rank had reached it (killed, or System.exit on "
                        + "another thread): the ranks still working cannot complete with it",
                "rank 2 exited with status 0 inside Mpi.finish, before every rank had reached it (System.exit on "
                        + "another thread?): the ranks still working cannot complete with it"), verdicts);
    }

    /** Once every rank is in Mpi.finish's fence, no rank waits for another: one that ends before its goodbye fails nothing. */
    @Test
    void aRankEndingAfterEveryRankReachedMpiFinishFailsNothing() throws Exception {
        RankDepartures slurm = withoutExits(2);
        RankDepartures launcher = withExits();
        on(() -> {
            registerAll(slurm, 2);
            slurm.reachedFinish(0);
            slurm.reachedFinish(1);
            slurm.reachedFinish(1); // said twice: counted once
            lost(slurm, 1);
            registerAll(launcher, 3);
            launcher.reachedFinish(0);
            launcher.reachedFinish(1);
            launcher.reachedFinish(1);
            launcher.exitedWithZero(1);
            launcher.closedWithoutGoodbye(1); // rank 2 is not in the fence yet: a failure
        });
        assertEquals(1, verdicts.size(), verdicts::toString);
        assertTrue(verdicts.get(0).startsWith("rank 1 exited with status 0 inside Mpi.finish"), verdicts::toString);
    }

    @Test
    void afterStopNothingIsJudged() throws Exception {
        RankDepartures d = withoutExits(2);
        on(() -> {
            d.registered(0);
            d.registered(1);
            d.stop(); // an abort
            lost(d, 1);
        });
        assertEquals(List.of(), verdicts);
    }

    /**
     * A Slurm task killed before Mpi.init is not seen by task 0: the line names who never joined when the others give
     * up.
     */
    @Test
    void fromTheRendezvousAloneALossBeforeEveryRankJoinedNamesTheRanksThatDidNot() throws Exception {
        RankDepartures d = withoutExits(4);
        on(() -> {
            d.registered(0);
            d.registered(1);
            lost(d, 1); // its rendezvous timed out
        });
        assertEquals(List.of("it ended without calling Mpi.finish while ranks 2, 3 had not joined the job (a rank "
                + "killed before it calls Mpi.init leaves the others waiting until the rendezvous times out)"), verdicts);
    }

    /**
     * A Slurm task that ends without joining says so: it fails the job as soon as another rank has joined, whether
     * that was before its word or after; a word from a rank that joined is its connection's to judge.
     */
    @Test
    void fromTheRendezvousAloneATaskThatEndsWithoutJoiningFailsTheJobOnceAnotherJoins() throws Exception {
        String reason = "it ended without joining the job (its program ended before Mpi.init, Mpi.init failed, or it "
                + "was stopped), "
                + "while other ranks joined: they cannot start without it";
        RankDepartures before = withoutExits(3);
        on(() -> {
            before.endedBeforeJoining(2); // no rank has joined: perhaps none uses MPI
            before.endedBeforeJoining(1);
        });
        assertEquals(List.of(), verdicts);
        on(() -> before.registered(0));
        assertEquals(List.of(reason), verdicts);
        assertEquals(List.of(2), failedRanks);

        RankDepartures after = withoutExits(3);
        on(() -> {
            after.registered(0);
            after.endedBeforeJoining(0); // joined: its connection's close decides
            after.endedBeforeJoining(1);
            after.endedBeforeJoining(2); // the job has failed already: said once
        });
        assertEquals(List.of(reason, reason), verdicts);
        assertEquals(List.of(2, 1), failedRanks);
    }

    @Test
    void noRankJoiningIsNoFailure() throws Exception {
        RankDepartures d = withoutExits(2);
        on(() -> {
            d.endedBeforeJoining(0);
            d.endedBeforeJoining(1);
        });
        assertEquals(List.of(), verdicts);
    }

    private static void registerAll(RankDepartures d, int size) {
        for (int r = 0; r < size; r++) {
            d.registered(r);
        }
    }

    /** A judge for a host that sees the rendezvous alone (Slurm's task 0): its verdicts are collected here. */
    private RankDepartures withoutExits(int size) {
        return RankDepartures.withoutProcessExits(size, (rank, reason) -> {
            verdicts.add(reason);
            failedRanks.add(rank);
        });
    }

    /** A loss the judge sees from the rendezvous alone: the verdict it returns is the one it gave. */
    private void lost(RankDepartures d, int rank) {
        int given = verdicts.size();
        String verdict = d.closedWithoutGoodbye(rank);
        assertEquals(verdict == null ? given : given + 1, verdicts.size());
        if (verdict != null) {
            assertEquals(verdict, verdicts.get(given));
        }
    }
}
