package io.mpirunj.runtime.bootstrap.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.JobToken;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlurmStepTest {

    /** What srun sets for task {@code rank} of a 6-task step over two nodes (4 + 2 tasks). */
    static Map<String, String> task(int rank) {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_PROCID", Integer.toString(rank));
        env.put("SLURM_NTASKS", "6");
        env.put("SLURM_STEP_NUM_TASKS", "6");
        env.put("SLURM_NODEID", rank < 4 ? "0" : "1");
        env.put("SLURM_LOCALID", Integer.toString(rank < 4 ? rank : rank - 4));
        env.put("SLURM_STEP_NODELIST", "node[07-08]");
        env.put("SLURM_STEP_TASKS_PER_NODE", "4,2");
        env.put("SLURM_STEP_RESV_PORTS", "20004-20006");
        env.put("SLURM_JOB_ID", "42");
        env.put("SLURM_STEP_ID", "3");
        env.put("SLURMD_NODENAME", rank < 4 ? "node07" : "node08");
        env.put("SLURM_SRUN_COMM_PORT", "39113");
        return env;
    }

    @Test
    void everyTaskAgreesOnTheRendezvousAndTokenAndKnowsItself() {
        SlurmStep first = SlurmStep.from(task(0));
        SlurmStep fifth = SlurmStep.from(task(5));
        assertEquals("node07:20004", first.rendezvous());
        assertEquals(first.rendezvous(), fifth.rendezvous());
        assertEquals(first.token(), fifth.token());
        assertEquals(2 * JobToken.BYTES, first.token().length());
        assertEquals(5, fifth.rank());
        assertEquals(6, fifth.size());
        assertEquals(1, fifth.localRank());
        assertEquals(2, fifth.localSize());
        assertEquals(List.of("node07", "node08"), fifth.nodes());

        Map<String, String> env = fifth.rankEnvironment(Map.of("HOME", "/h"));
        assertEquals("5", env.get(JobEnvironment.WORLD_RANK));
        assertEquals("6", env.get(JobEnvironment.WORLD_SIZE));
        assertEquals("1", env.get(JobEnvironment.LOCAL_RANK));
        assertEquals("2", env.get(JobEnvironment.LOCAL_SIZE));
        assertEquals("node07:20004", env.get(JobEnvironment.RENDEZVOUS));
        assertEquals("node08", env.get(JobEnvironment.ADVERTISE_HOST));
        assertEquals("/h", env.get("HOME"));
    }

    @Test
    void anotherStepGetsAnotherToken() {
        Map<String, String> other = task(0);
        other.put("SLURM_STEP_ID", "4");
        assertNotEquals(SlurmStep.from(task(0)).token(), SlurmStep.from(other).token());
    }

    @Test
    void incompleteEnvironmentsAreOneClearLine() {
        Map<String, String> noStep = task(0);
        noStep.remove("SLURM_PROCID");
        assertTrue(message(noStep).contains("not a task of a Slurm job step"));

        Map<String, String> noPorts = task(0);
        noPorts.remove("SLURM_STEP_RESV_PORTS");
        String m = message(noPorts);
        assertTrue(m.contains("SLURM_STEP_RESV_PORTS is not set") && m.contains("--resv-ports"), m);

        Map<String, String> emptyPorts = task(0);
        emptyPorts.put("SLURM_STEP_RESV_PORTS", "");
        assertTrue(message(emptyPorts).contains("is empty"));

        Map<String, String> badRank = task(0);
        badRank.put("SLURM_PROCID", "6");
        assertTrue(message(badRank).contains("0 <= rank < tasks"));

        Map<String, String> badList = task(0);
        badList.put("SLURM_STEP_NODELIST", "node[07-");
        assertTrue(message(badList).contains("malformed host list"));
        for (Map<String, String> env : List.of(noStep, noPorts, emptyPorts, badRank, badList)) {
            assertFalse(message(env).contains("\n"));
        }
    }

    @Test
    void directLaunchIsOptIn() {
        assertFalse(SlurmStep.isDirectLaunch(task(0)));
        Map<String, String> env = task(0);
        env.put(SlurmStep.DIRECT_LAUNCH_ENV, "1");
        assertTrue(SlurmStep.isDirectLaunch(env));
    }

    private static String message(Map<String, String> env) {
        return assertThrows(IllegalArgumentException.class, () -> SlurmStep.from(env)).getMessage();
    }
}
