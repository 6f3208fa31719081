package io.mpirunj.benchmarks.sweep;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Another MPI runtime to run the same benchmark on, for side-by-side results: Open MPI with the OSU
 * C benchmarks ({@link OpenMpiOsu}, {@code OSU_HOME}) or MPJ Express ({@link MpjExpress},
 * {@code MPJ_HOME}).
 */
public interface ExternalRuntime {
    /** The runtime's label in tables, charts and the CSV's runtime column. */
    String name();

    /** The CSV's algorithm column for this runtime's results (its default choice). */
    default String algorithmLabel() {
        return "default";
    }

    /** Null when {@code b} can run here; else why not, for a {@code skipped: ...} line. */
    String unavailableReason(OsuBenchmark b);

    /** Runs {@code b} on {@code np} ranks with the OSU options {@code args}; its standard output. */
    String run(OsuBenchmark b, int np, List<String> args) throws Exception;

    /** Every runtime we know, configured from {@code env}. */
    static List<ExternalRuntime> all(Map<String, String> env) {
        return List.of(new OpenMpiOsu(env), new MpjExpress(env));
    }

    /** Runs {@code command}, returning its stdout; a non-zero exit becomes an exception with its stderr. */
    static String exec(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        p.getOutputStream().close();
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        Thread drain = new Thread(() -> {
            try {
                p.getErrorStream().transferTo(err);
            } catch (IOException ignored) {
                // the process ended
            }
        }, "stderr-drain");
        drain.start();
        p.getInputStream().transferTo(out);
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
        }
        drain.join(1000);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with status " + p.exitValue() + ": "
                    + err.toString(StandardCharsets.UTF_8).trim());
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
