package io.mpirunj.launcher;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One validated job, as the run command hands it to a launcher mode: how many ranks, what to run,
 * where the user's classes are, what the ranks get besides, how to present the output and how long
 * the job may take. Immutable.
 *
 * @param size number of ranks (&ge; 1)
 * @param mainClass the user's main class, already checked to have {@code public static void main(String[])}
 * @param args the program's arguments, passed to every rank untouched
 * @param userClasspath the user's classpath entries, each an existing, readable file or directory
 * @param coll forced collective algorithms ({@code op=name,...}, already checked), or null
 * @param output how rank output is presented (tags, timestamps, files)
 * @param verbose report what the launcher does on stderr
 * @param env variables to set in every rank's environment ({@code -x}), in order
 * @param jvmArgs options for every rank's JVM ({@code -J}; process mode only)
 * @param timeoutMs the job's time limit in milliseconds ({@code --timeout}), 0 for none
 * @param startupJit whether rank JVMs start with the start-up compile thresholds
 *     ({@code ProcessJob.RANK_STARTUP_JIT_OPTIONS}; process mode only): true for user jobs, false for benchmark jobs,
 *     which time steady-state code
 */
public record JobSpec(int size, String mainClass, List<String> args, List<Path> userClasspath, String coll,
        OutputOptions output, boolean verbose, Map<String, String> env, List<String> jvmArgs, long timeoutMs,
        boolean startupJit) {
    public JobSpec {
        if (size < 1) {
            throw new IllegalArgumentException("size=" + size + " (expected: >= 1)");
        }
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeoutMs=" + timeoutMs + " (expected: >= 0)");
        }
        args = List.copyOf(args);
        userClasspath = List.copyOf(userClasspath);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        jvmArgs = List.copyOf(jvmArgs);
    }

    /**
     * A job with default options: untagged console output, no extra environment, no time limit, the start-up
     * compile thresholds.
     */
    public static JobSpec of(int size, String mainClass, List<String> args, List<Path> userClasspath) {
        return new JobSpec(size, mainClass, args, userClasspath, null, OutputOptions.CONSOLE, false, Map.of(),
                List.of(), 0, true);
    }

    /** How the ranks' output is presented. */
    public record OutputOptions(boolean tag, boolean timestamp, Path directory) {
        /** Plain lines on the launcher's stdout and stderr. */
        public static final OutputOptions CONSOLE = new OutputOptions(false, false, null);
    }

    /** The program's arguments as a fresh array (each rank gets its own copy). */
    public String[] argsArray() {
        return args.toArray(new String[0]);
    }
}
