package io.mpirunj.benchmarks.papers;

import io.mpirunj.io.IoErrors;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code PapersMain --out DIR [--quick]}: writes the papers report into DIR. Exit code 0 when
 * every reference value matched, 1 when any did not (or a reproduction failed), 2 on bad
 * arguments.
 */
public final class PapersMain {

    private PapersMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    /** Parses {@code args}, runs the report and returns the exit code. */
    public static int run(String[] args, PrintStream err) {
        Path out = null;
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> {
                    if (i + 1 >= args.length) {
                        return usage(err, "--out needs a directory");
                    }
                    out = Path.of(args[++i]);
                }
                case "--quick" -> quick = true;
                case "-h", "--help" -> {
                    usage(err, null);
                    return 0;
                }
                default -> {
                    return usage(err, "unknown argument '" + args[i] + "'");
                }
            }
        }
        if (out == null) {
            return usage(err, "--out is required");
        }
        try {
            int failures = PapersReport.generate(out, new RunOptions(quick), Reproductions.all(), err).failures();
            return failures == 0 ? 0 : 1;
        } catch (java.io.IOException e) {
            err.println("papers: cannot write the report to " + out + ": " + IoErrors.reason(e));
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        if (problem != null) {
            err.println("papers: " + problem);
        }
        err.println("usage: PapersMain --out DIR [--quick]");
        err.println("  writes DIR/index.html and DIR/report.md (+ PNG/SVG pictures); exit 1 if any reference mismatches");
        return problem == null ? 0 : 2;
    }
}
