package io.mpirunj.runtime.bootstrap.slurm;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.JobToken;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * One task of a Slurm job step started directly by {@code srun} (no mpirun-j launcher): who it is
 * and where the step's rendezvous is, read from the variables {@code srun} sets for every task.
 *
 * <p>Task 0 sits on the first node of the step (Slurm's block and cyclic distributions both put it
 * there) and hosts the rendezvous on the first port Slurm reserved for the step
 * ({@code SLURM_STEP_RESV_PORTS}: {@code MpiParams=ports=A-B} in {@code slurm.conf}, or
 * {@code srun --resv-ports=N}); every task, task 0 included, registers there as it would with the
 * launcher. The job token is derived from values every task of the step sees and nothing outside it
 * predicts in advance (the step's ids, its node list, its reserved ports and srun's own ephemeral
 * ports): it keeps other jobs' ranks out, as the launcher's random token does; it is not a secret
 * against a user who can read the step's environment.
 */
public record SlurmStep(int rank, int size, int localRank, int localSize, List<String> nodes, int rendezvousPort,
        String jobId, String stepId, String nodeName, String token) {

    /** Set (to 1) in a task's environment, or {@link #DIRECT_LAUNCH_PROP} set to true: join the step, not a launcher. */
    public static final String DIRECT_LAUNCH_ENV = "MPIRUNJ_SRUN";
    public static final String DIRECT_LAUNCH_PROP = "mpirunj.srun";

    static final String PROCID = "SLURM_PROCID";
    static final String NTASKS = "SLURM_NTASKS";
    static final String STEP_NUM_TASKS = "SLURM_STEP_NUM_TASKS";
    static final String LOCALID = "SLURM_LOCALID";
    static final String NODEID = "SLURM_NODEID";
    static final String STEP_NODELIST = "SLURM_STEP_NODELIST";
    static final String STEP_TASKS_PER_NODE = "SLURM_STEP_TASKS_PER_NODE";
    static final String STEP_RESV_PORTS = "SLURM_STEP_RESV_PORTS";
    static final String JOB_ID = "SLURM_JOB_ID";
    static final String STEP_ID = "SLURM_STEP_ID";
    static final String NODENAME = "SLURMD_NODENAME";

    /** True when this process was asked to join a Slurm step directly ({@code mpirun-j --srun-rank}). */
    public static boolean isDirectLaunch(Map<String, String> env) {
        return Boolean.getBoolean(DIRECT_LAUNCH_PROP) || "1".equals(env.get(DIRECT_LAUNCH_ENV))
                || "true".equalsIgnoreCase(env.get(DIRECT_LAUNCH_ENV));
    }

    /**
     * Reads the step from {@code env}.
     *
     * @throws IllegalArgumentException with one line naming what is missing or malformed, and how to fix it
     */
    public static SlurmStep from(Map<String, String> env) {
        if (!env.containsKey(PROCID)) {
            throw new IllegalArgumentException(PROCID + " is not set: this is not a task of a Slurm job step "
                    + "(expected: srun -n N mpirun-j --srun-rank MainClass)");
        }
        int rank = nonNegative(env, PROCID);
        int size = env.containsKey(STEP_NUM_TASKS) ? nonNegative(env, STEP_NUM_TASKS) : nonNegative(env, NTASKS);
        if (size < 1 || rank >= size) {
            throw new IllegalArgumentException(PROCID + "=" + rank + ", tasks=" + size + " (expected: 0 <= rank < tasks)");
        }
        List<String> nodes = SlurmHostlist.expand(require(env, STEP_NODELIST));
        int nodeId = env.containsKey(NODEID) ? nonNegative(env, NODEID) : 0;
        int localRank = env.containsKey(LOCALID) ? nonNegative(env, LOCALID) : 0;
        int localSize = 1;
        if (env.containsKey(STEP_TASKS_PER_NODE)) {
            List<Integer> perNode = SlurmHostlist.expandCounts(env.get(STEP_TASKS_PER_NODE));
            if (nodeId < perNode.size()) {
                localSize = perNode.get(nodeId);
            }
        }
        String portList = env.get(STEP_RESV_PORTS);
        List<Integer> ports = SlurmHostlist.expandPorts(portList);
        if (ports.isEmpty()) {
            throw new IllegalArgumentException(STEP_RESV_PORTS + " is " + (portList == null ? "not set" : "empty")
                    + ": the step has no reserved port for its rendezvous (expected: MpiParams=ports=20000-20999 in "
                    + "slurm.conf, or srun --resv-ports=1)");
        }
        String jobId = require(env, JOB_ID);
        String stepId = env.getOrDefault(STEP_ID, "0");
        String nodeName = env.getOrDefault(NODENAME, nodes.get(Math.min(nodeId, nodes.size() - 1)));
        return new SlurmStep(rank, size, localRank, localSize, List.copyOf(nodes), ports.get(0), jobId, stepId,
                nodeName, token(env));
    }

    /** Where task 0 hosts the rendezvous: {@code host:port}. */
    public String rendezvous() {
        return nodes.get(0) + ":" + rendezvousPort;
    }

    /** The environment the launcher would have given this rank: {@code base} plus the rank's identity. */
    public Map<String, String> rankEnvironment(Map<String, String> base) {
        Map<String, String> env = new HashMap<>(base);
        String r = Integer.toString(rank);
        String n = Integer.toString(size);
        env.put(JobEnvironment.WORLD_RANK, r);
        env.put(JobEnvironment.WORLD_SIZE, n);
        env.put(JobEnvironment.PMI_RANK, r);
        env.put(JobEnvironment.PMI_SIZE, n);
        env.put(JobEnvironment.LOCAL_RANK, Integer.toString(localRank));
        env.put(JobEnvironment.LOCAL_SIZE, Integer.toString(localSize));
        env.put(JobEnvironment.RENDEZVOUS, rendezvous());
        env.put(JobEnvironment.JOB_TOKEN, token);
        // other nodes reach this rank by its node's name (loopback when the whole step is on one node)
        env.putIfAbsent(JobEnvironment.ADVERTISE_HOST, nodes.size() == 1 ? "127.0.0.1" : nodeName);
        return env;
    }

    private static String token(Map<String, String> env) {
        StringBuilder seed = new StringBuilder("mpirun-j slurm step");
        for (String name : new String[] {JOB_ID, STEP_ID, STEP_NODELIST, STEP_RESV_PORTS, "SLURM_JOB_UID",
                "SLURM_SRUN_COMM_PORT", "SLURM_STEP_LAUNCHER_PORT", "SLURM_LAUNCH_NODE_IPADDR"}) {
            seed.append('\n').append(name).append('=').append(env.getOrDefault(name, ""));
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, JobToken.BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String require(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is not set (expected: set by srun for every task)");
        }
        return v.trim();
    }

    private static int nonNegative(Map<String, String> env, String name) {
        return RuntimeConfig.nonNegativeSetting(name, require(env, name), 0);
    }
}
