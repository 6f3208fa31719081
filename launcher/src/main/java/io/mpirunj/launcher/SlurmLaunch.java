package io.mpirunj.launcher;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.slurm.SlurmStep;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.io.IOException;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * mpirun-j under Slurm, both ways round:
 * <ul>
 *   <li><b>Direct launch</b> ({@code srun -n 16 mpirun-j --srun-rank MyApp}): every task {@code srun}
 *       starts is one rank; this JVM runs the program itself and joins the step's ranks
 *       ({@link SlurmStep}), with no launcher.</li>
 *   <li><b>Inside an allocation</b> ({@code sbatch}/{@code salloc}, then {@code mpirun-j -np 16 MyApp}):
 *       the launcher starts the ranks through {@code srun} on the allocation's nodes, as {@code mpirun}
 *       does, and returns {@code srun}'s exit status (the highest of the ranks').</li>
 * </ul>
 *
 * <p>Inside an allocation a failing rank ends the job through our own failure propagation: every
 * rank's calls that depend on it fail, and those ranks exit 1, so the job's status is the failed
 * rank's own (e.g. its {@code System.exit(3)}). We do not pass {@code --kill-on-bad-exit}: Slurm would
 * then end the other ranks with SIGTERM and {@code srun} would report 143 instead of the rank's status.
 * {@code MPIRUNJ_SRUN_ARGS} adds options to the {@code srun} command (e.g. {@code -K1}, {@code --time}).
 */
final class SlurmLaunch {
    /** Set to {@code off} to run locally even inside a Slurm allocation. */
    static final String SLURM_ENV = "MPIRUNJ_SLURM";
    static final String JOB_ID = "SLURM_JOB_ID";
    static final String STEP_ID = "SLURM_STEP_ID";
    static final String NTASKS = "SLURM_NTASKS";
    /** Extra {@code srun} options for the in-allocation launch, split at white space. */
    static final String SRUN_ARGS_ENV = "MPIRUNJ_SRUN_ARGS";

    private SlurmLaunch() {
    }

    /**
     * True inside an allocation (a batch script or an salloc shell), outside any job step: the batch
     * script itself has {@code SLURM_PROCID=0} but no {@code SLURM_STEP_ID}; tasks of a step have both.
     */
    static boolean insideAllocation(Map<String, String> env) {
        return env.containsKey(JOB_ID) && !env.containsKey(STEP_ID) && !"off".equalsIgnoreCase(env.get(SLURM_ENV));
    }

    /** The allocation's task count ({@code SLURM_NTASKS}), the default {@code -np} inside an allocation. */
    static Integer allocationTasks(Map<String, String> env) {
        String n = env.get(NTASKS);
        try {
            return n == null ? null : Integer.valueOf(n.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Checks that this process is a task of a Slurm step and returns it.
     *
     * @throws UsageException with one line when the step's environment is incomplete
     */
    static SlurmStep step(Map<String, String> env) throws UsageException {
        try {
            return SlurmStep.from(env);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--srun-rank: " + e.getMessage());
        }
    }

    /** Runs the program as this task's rank, in this JVM; returns the rank's exit status. */
    static int runRank(JobSpec spec) {
        System.setProperty(SlurmStep.DIRECT_LAUNCH_PROP, "true");
        if (spec.coll() != null) {
            System.setProperty(CollectiveRegistry.PROP_NAME, spec.coll());
        }
        String fabric = spec.env().get(RuntimeConfig.FABRIC_ENV);
        if (fabric != null) {
            System.setProperty(RuntimeConfig.FABRIC_PROP, fabric);
        }
        String placement = spec.env().get(RuntimeConfig.PLACEMENT_ENV);
        if (placement != null) {
            System.setProperty(RuntimeConfig.PLACEMENT_PROP, placement);
        }
        ClassLoader loader = new URLClassLoader("rank", UserClasspath.urls(spec.userClasspath()),
                SlurmLaunch.class.getClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        return RankMain.run(spec.mainClass(), spec.argsArray(), loader);
    }

    /** The {@code srun} command that starts the job's ranks inside the allocation. */
    static List<String> srunCommand(JobSpec spec, String launcherClasspath, Map<String, String> env) {
        List<String> cmd = new ArrayList<>();
        cmd.add("srun");
        cmd.add("--ntasks=" + spec.size());
        cmd.add("--export=ALL");
        String extra = env.get(SRUN_ARGS_ENV);
        if (extra != null && !extra.isBlank()) {
            cmd.addAll(List.of(extra.trim().split("\\s+")));
        }
        if (spec.output().tag()) {
            cmd.add("--label");
        }
        // no class-data archive: it lives on this node only, and srun may start ranks on others
        cmd.addAll(ProcessJob.rankCommand(spec, launcherClasspath, ProcessJob.javaExecutable(), List.of()));
        return cmd;
    }

    /** Runs the job through {@code srun} and returns its exit status (124 after {@code --timeout}). */
    static int runInAllocation(JobSpec spec, String launcherClasspath, RankOutput output) {
        List<String> cmd = srunCommand(spec, launcherClasspath, System.getenv());
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        Map<String, String> env = pb.environment();
        env.putAll(spec.env());
        env.put(SlurmStep.DIRECT_LAUNCH_ENV, "1");
        if (spec.output().tag()) { // srun --label tags the lines
            env.put(JobEnvironment.TAGGED_OUTPUT, "1");
        }
        if (spec.coll() != null) {
            env.put(CollectiveRegistry.ENV_NAME, spec.coll());
        }
        if (spec.verbose()) {
            output.launcherError("inside Slurm allocation " + System.getenv(JOB_ID) + ": " + String.join(" ", cmd));
        }
        Process srun;
        try {
            srun = pb.start();
        } catch (IOException e) {
            output.launcherError("inside Slurm allocation " + System.getenv(JOB_ID) + " but cannot run srun ("
                    + e.getMessage() + "); set " + SLURM_ENV + "=off to run the ranks on this node only");
            return ExitCodes.FAILED;
        }
        Thread hook = new Thread(srun::destroy, "mpirunj-srun-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (spec.timeoutMs() > 0 && !srun.waitFor(spec.timeoutMs(), TimeUnit.MILLISECONDS)) {
                output.launcherError("timeout: stopping the job after " + spec.timeoutMs() / 1000.0 + " s");
                srun.destroy(); // srun passes the signal to every task
                if (!srun.waitFor(10, TimeUnit.SECONDS)) {
                    srun.destroyForcibly();
                }
                return ExitCodes.TIMEOUT;
            }
            return srun.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            srun.destroy();
            return ExitCodes.INTERRUPTED;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }
}
