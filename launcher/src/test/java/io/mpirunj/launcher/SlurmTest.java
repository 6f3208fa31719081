package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mpirunj.examples.Hello;
import io.mpirunj.testapps.Exiter;
import io.mpirunj.testapps.NoMpi;
import io.mpirunj.testapps.SkipsInit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * mpirun-j under a real Slurm: direct launch ({@code srun mpirun-j --srun-rank}) and {@code mpirun-j}
 * inside an {@code sbatch} allocation. Needs a Slurm cluster on this host ({@code .ci/slurm-up} starts
 * a single-node one, as CI does); skipped otherwise. Every Slurm command runs under {@code timeout},
 * because a request Slurm cannot satisfy waits forever.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SlurmTest {
    private static final String CP = MpirunJ.launcherClasspath();
    /** Set to 1 (as .ci/run does once its Slurm is up) to fail instead of skipping when Slurm is missing. */
    static final String REQUIRE_ENV = "MPIRUNJ_REQUIRE_SLURM";

    @BeforeAll
    static void slurmIsUp() throws Exception {
        Result sinfo;
        try {
            sinfo = run(List.of("timeout", "10", "sinfo", "-h", "-o", "%T"), null);
        } catch (IOException noSlurm) {
            sinfo = new Result(127, "", String.valueOf(noSlurm.getMessage()));
        }
        boolean up = sinfo.code == 0 && sinfo.out.matches("(?s).*(idle|mix|alloc).*");
        if ("1".equals(System.getenv(REQUIRE_ENV))) {
            assertTrue(up, "Slurm is required here (" + REQUIRE_ENV + "=1) but not up: " + sinfo);
        }
        assumeTrue(up, "no Slurm cluster here (start one with .ci/slurm-up): " + sinfo);
    }

    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private static Result run(List<String> cmd, Path dir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Path out = Files.createTempFile("slurm-test", ".out");
        Path err = Files.createTempFile("slurm-test", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            int code = p.waitFor();
            return new Result(code, Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** {@code srun -n N [srunOptions] java -cp … MpirunJ --srun-rank args…} under a 120 s guard. */
    private static Result srun(int n, List<String> srunOptions, String... launcherArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("timeout", "120", "srun", "-n", Integer.toString(n)));
        cmd.addAll(srunOptions);
        cmd.addAll(List.of(ProcessJob.javaExecutable(), "-cp", CP, MpirunJ.class.getName(), "--srun-rank"));
        cmd.addAll(List.of(launcherArgs));
        return run(cmd, null);
    }

    private static String testClasses() {
        return LauncherRun.classpathOf(Exiter.class);
    }

    @Test
    void helloAtEightRanksMeetsWithoutALauncher() throws Exception {
        Result r = srun(8, List.of(), Hello.class.getName());
        assertEquals(0, r.code, r::toString);
        for (int i = 0; i < 8; i++) {
            assertTrue(r.out.contains("Hello from rank " + i + " of 8"), r::toString);
        }
    }

    @Test
    void collectivesGiveCorrectResultsWithEachForcedAlgorithm() throws Exception {
        for (String coll : new String[] {null, "bcast=opt-tree,alltoall=pairwise"}) {
            List<String> args = new ArrayList<>();
            if (coll != null) {
                args.addAll(List.of("--coll", coll));
            }
            args.add("io.mpirunj.examples.CollectivesDemo");
            Result r = srun(8, List.of(), args.toArray(new String[0]));
            assertEquals(0, r.code, () -> coll + ": " + r);
            for (int i = 0; i < 8; i++) {
                assertTrue(r.out.contains("rank " + i + " of 8: OK"), () -> coll + ": " + r);
            }
        }
    }

    @Test
    void aTaskThatExitsThreeEndsTheStepNonZeroNamingItAndLeavesNoJvm() throws Exception {
        String marker = "slurm-test-" + UUID.randomUUID();
        Result r = srun(4, List.of("-K1"), "-cp", testClasses(), Exiter.class.getName(), "2", "3", marker);
        assertNotEquals(0, r.code, r::toString);
        assertTrue(r.err.contains("rank 2 failed"), r::toString);
        Result left = run(List.of("pgrep", "-f", marker), null);
        assertEquals(1, left.code, () -> "stray rank processes: " + left.out);
    }

    @Test
    void aBadDirectLaunchIsOneLineOnEveryTaskAndNothingRuns() throws Exception {
        // srun without reserved ports: no rendezvous is possible, so no rank may run alone
        Result r = run(List.of("timeout", "60", "srun", "-n", "2", "--export=ALL,SLURM_STEP_RESV_PORTS=",
                "bash", "-c", "unset SLURM_STEP_RESV_PORTS; exec \"$0\" \"$@\"", ProcessJob.javaExecutable(), "-cp", CP,
                MpirunJ.class.getName(), "--srun-rank", Hello.class.getName()), null);
        assertEquals(2, r.code, r::toString);
        assertEquals("", r.out, r::toString);
        assertTrue(r.err.contains("mpirun-j: --srun-rank: SLURM_STEP_RESV_PORTS is not set"), r::toString);
    }

    @Test
    void sbatchOfMpirunJInsideTheAllocationReturnsTheJobsExitCode() throws Exception {
        Path dir = Files.createTempDirectory("slurm-batch");
        String launcher = "exec '" + ProcessJob.javaExecutable() + "' -cp '" + CP + "' " + MpirunJ.class.getName();
        Path ok = script(dir, "ok.sh", launcher + " " + Hello.class.getName()); // -np from the allocation
        Result good = run(List.of("timeout", "120", "sbatch", "--wait", "-n", "4", "-o", dir.resolve("ok.out").toString(),
                ok.toString()), dir);
        String okOut = Files.readString(dir.resolve("ok.out"));
        assertEquals(0, good.code, () -> good + "\n--- job output\n" + okOut);
        for (int i = 0; i < 4; i++) {
            assertTrue(okOut.contains("Hello from rank " + i + " of 4"), okOut);
        }

        Path bad = script(dir, "bad.sh", launcher + " -np 4 -cp '" + testClasses() + "' " + Exiter.class.getName() + " 1 3");
        Result failed = run(List.of("timeout", "120", "sbatch", "--wait", "-n", "4", "-o",
                dir.resolve("bad.out").toString(), bad.toString()), dir);
        String badOut = Files.readString(dir.resolve("bad.out"));
        assertEquals(3, failed.code, () -> failed + "\n--- job output\n" + badOut);
        assertTrue(badOut.contains("rank 1 failed"), badOut);
    }

    /**
     * A task that ends with status 0 without Mpi.finish (System.exit(0) in the middle of the job) fails the step with
     * the line naming it that task 0 judges as the launcher does (it sees no other task's exit status, so the line
     * says it ended without Mpi.finish, not with which status).
     */
    @Test
    void aTaskThatExitsZeroWithoutFinishingFailsTheStepNamingIt() throws Exception {
        Result r = srun(3, List.of(), "-cp", testClasses(), Exiter.class.getName(), "1", "0");
        assertNotEquals(0, r.code, r::toString);
        assertTrue(r.err.contains("mpirun-j: rank 1 failed: it ended without calling Mpi.finish"), r::toString);
        assertTrue(!r.out.contains("still alive"), r::toString);
    }

    /** A task that ends while it waits in Mpi.finish for the others: task 0's line says it ended there. */
    @Test
    void aTaskThatEndsInsideMpiFinishIsSaidToHaveEndedThere() throws Exception {
        Result r = srun(3, List.of(), "-cp", testClasses(), Exiter.class.getName(), "1", "0", "in-finish");
        assertNotEquals(0, r.code, r::toString);
        assertTrue(r.err.contains("mpirun-j: rank 1 failed: it ended inside Mpi.finish, before every rank had reached"
                + " it"), r::toString);
        assertTrue(!r.out.contains("still alive"), r::toString);
    }

    /**
     * Task 0 hosts the step's rendezvous: when it ends with status 0 in the middle of the job, no launcher and no
     * task 0 is left to judge it, so every other task says it lost rank 0 and ends non-zero.
     */
    @Test
    void task0ExitingZeroMidJobIsNamedByTheOthers() throws Exception {
        Result r = srun(3, List.of(), "-cp", testClasses(), Exiter.class.getName(), "0", "0");
        assertNotEquals(0, r.code, r::toString);
        for (int rank = 1; rank < 3; rank++) {
            assertTrue(r.err.contains("[rank " + rank + "] mpirun-j: lost the control connection to rank 0 (it hosts"
                    + " the job's rendezvous)"), r::toString);
        }
        assertTrue(!r.out.contains("still alive"), r::toString);
    }

    /**
     * A task that ends before Mpi.init while the others call it says so as it exits (task 0 sees no task end): task 0
     * names it, and the others are told the job cannot start, long before their rendezvous times out (ten minutes
     * here: past srun's 120 s guard, which would end the step with 124 and no such lines).
     */
    @Test
    void aTaskThatEndsBeforeJoiningFailsTheStepAtOnce() throws Exception {
        Result r = srun(3, List.of("--export=ALL,MPIRUNJ_RENDEZVOUS_TIMEOUT_MS=600000"), "-cp", testClasses(),
                SkipsInit.class.getName(), "2");
        assertNotEquals(0, r.code, r::toString);
        assertNotEquals(124, r.code, r::toString);
        assertTrue(r.out.contains("rank 2 returns before Mpi.init"), r::toString);
        assertTrue(r.err.contains("mpirun-j: rank 2 failed: it ended without joining the job (its program ended before "
                + "Mpi.init, Mpi.init failed, or it was stopped), while other ranks joined"), r::toString);
        assertTrue(r.err.contains("rank 0: the job cannot start: its rendezvous reports rank 2 failed: it ended "
                + "without joining the job"), r::toString);
        assertTrue(r.err.contains("rank 1: the job cannot start: rank 0 (it hosts the job's rendezvous) reports rank 2 "
                + "failed: it ended without joining the job"), r::toString);
        assertTrue(!r.out.contains("still alive"), r::toString);
    }

    /** A program that never uses MPI ends as it would alone: no task's word that it did not join fails the step. */
    @Test
    void aProgramWithoutMpiEndsCleanly() throws Exception {
        Result r = srun(3, List.of(), "-cp", testClasses(), NoMpi.class.getName());
        assertEquals(0, r.code, r::toString);
        assertEquals(3, r.out.split("no newline at the end", -1).length - 1, r::toString);
        assertTrue(!r.err.contains("failed"), r::toString);
    }

    /** The same inside an allocation: mpirun-j's job through srun ends with status 1 and the line. */
    @Test
    void insideTheAllocationATaskThatExitsZeroWithoutFinishingFailsTheJob() throws Exception {
        Path dir = Files.createTempDirectory("slurm-batch");
        String launcher = "exec '" + ProcessJob.javaExecutable() + "' -cp '" + CP + "' " + MpirunJ.class.getName();
        Path job = script(dir, "exit0.sh", launcher + " -np 3 -cp '" + testClasses() + "' " + Exiter.class.getName()
                + " 2 0");
        Result r = run(List.of("timeout", "120", "sbatch", "--wait", "-n", "3", "-o", dir.resolve("exit0.out").toString(),
                job.toString()), dir);
        String out = Files.readString(dir.resolve("exit0.out"));
        assertEquals(1, r.code, () -> r + "\n--- job output\n" + out);
        assertTrue(out.contains("mpirun-j: rank 2 failed: it ended without calling Mpi.finish"), out);
        assertTrue(!out.contains("still alive"), out);
    }

    private static Path script(Path dir, String name, String command) throws IOException {
        Path s = dir.resolve(name);
        Files.writeString(s, "#!/bin/bash\n" + command + "\n", StandardCharsets.UTF_8);
        assertTrue(s.toFile().setExecutable(true));
        return s;
    }
}
