package io.mpirunj.launcher;

import java.nio.file.Path;
import java.util.List;

/**
 * One validated job, as the run command hands it to a launcher mode: how many ranks, what to run,
 * where the user's classes are and how to present the output. Immutable.
 *
 * @param size number of ranks (&ge; 1)
 * @param mainClass the user's main class, already checked to have {@code public static void main(String[])}
 * @param args the program's arguments, passed to every rank untouched
 * @param userClasspath the user's classpath entries, each an existing, readable file or directory
 * @param coll forced collective algorithms ({@code op=name,...}, already checked), or null
 * @param tagOutput prefix every output line with {@code [rank] }
 * @param verbose report what the launcher does on stderr
 */
public record JobSpec(int size, String mainClass, List<String> args, List<Path> userClasspath, String coll,
        boolean tagOutput, boolean verbose) {
    public JobSpec {
        if (size < 1) {
            throw new IllegalArgumentException("size=" + size + " (expected: >= 1)");
        }
        args = List.copyOf(args);
        userClasspath = List.copyOf(userClasspath);
    }

    /** The program's arguments as a fresh array (each rank gets its own copy). */
    public String[] argsArray() {
        return args.toArray(new String[0]);
    }
}
