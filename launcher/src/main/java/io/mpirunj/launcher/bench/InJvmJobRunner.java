package io.mpirunj.launcher.bench;

import io.mpirunj.benchmarks.sweep.JobRunner;
import io.mpirunj.benchmarks.sweep.SweepJob;
import io.mpirunj.launcher.MpirunJ;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs a sweep's jobs through mpirun-j's own run command in this JVM
 * ({@link MpirunJ#commandLine()}, as {@code mpirun-j -np N [--threads] --coll C -cp BENCH MAIN ARGS}),
 * capturing the job's output. Ranks are threads of this JVM with {@code --threads}, else processes on the
 * JVM's own compile thresholds ({@link MpirunJ#STEADY_STATE_JIT}), not the start-up ones a user's job gets.
 */
final class InJvmJobRunner implements JobRunner {
    private final String benchmarksClasspath;
    private final String fixedColl;
    private final List<String> launcherOptions;

    /**
     * @param fixedColl forced algorithms of other operations, added to every job's {@code --coll}, or null
     * @param launcherOptions run-command options for every job (hosts, launch agent, JVM options)
     */
    InJvmJobRunner(String benchmarksClasspath, String fixedColl, List<String> launcherOptions) {
        this.benchmarksClasspath = benchmarksClasspath;
        this.fixedColl = fixedColl;
        this.launcherOptions = List.copyOf(launcherOptions);
    }

    /** The mpirun-j arguments of {@code job}. */
    List<String> arguments(SweepJob job) {
        List<String> a = new ArrayList<>(List.of("-np", String.valueOf(job.np())));
        if (job.threads()) {
            a.add("--threads");
        } else {
            a.add(MpirunJ.STEADY_STATE_JIT); // rank JVMs on the JVM's compile thresholds: the job times warm code
        }
        String coll = join(job.coll(), fixedColl);
        if (coll != null) {
            a.add("--coll");
            a.add(coll);
        }
        a.addAll(launcherOptions);
        a.addAll(List.of("-cp", benchmarksClasspath, job.mainClass()));
        a.addAll(job.args());
        return a;
    }

    static String join(String a, String b) {
        if (a == null || a.isBlank()) {
            return b == null || b.isBlank() ? null : b;
        }
        return b == null || b.isBlank() ? a : a + "," + b;
    }

    @Override
    public String run(SweepJob job) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = MpirunJ.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(arguments(job).toArray(String[]::new));
        if (code != 0) {
            throw new IOException("mpirun-j " + String.join(" ", arguments(job)) + " exited with status " + code + ": "
                    + err.toString().trim());
        }
        return out.toString();
    }
}
