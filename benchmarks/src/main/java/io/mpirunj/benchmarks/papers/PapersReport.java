package io.mpirunj.benchmarks.papers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs every {@link Reproduction} and writes the papers report: {@code index.html}
 * (self-contained, pictures as PNG files beside it, SVG copies linked) and {@code report.md}
 * with the same content. For each reproduction: the paper, what is reproduced, the paper's value,
 * ours and whether they match. Used by {@link PapersMain} and by {@code mpirun-j papers}.
 *
 * <p>Failures are counted, never thrown: a row whose reference value does not match counts one,
 * and a reproduction that throws (or whose picture cannot be written) counts one; the others
 * still run. Callers exit non-zero when the count is positive.
 */
public final class PapersReport {

    /** What one reproduction produced; {@code result} is null when it threw. */
    public record Outcome(Reproduction reproduction, ReproductionResult result, String error,
                          List<String> figureFiles, long millis) {

        public Outcome {
            figureFiles = List.copyOf(figureFiles);
        }

        /** Mismatched rows, plus one when the reproduction did not complete. */
        public long failures() {
            return (result == null ? 0 : result.failures()) + (error == null ? 0 : 1);
        }

        public boolean passed() {
            return failures() == 0;
        }
    }

    /** The whole run. {@code failures} is the process's verdict: 0 means every reference matched. */
    public record Summary(Path index, Path markdown, List<Outcome> outcomes, boolean quick) {

        public Summary {
            outcomes = List.copyOf(outcomes);
        }

        public int failures() {
            long n = 0;
            for (Outcome o : outcomes) {
                n += o.failures();
            }
            return (int) Math.min(Integer.MAX_VALUE, n);
        }

        /** Rows with a reference value or a stated property (INFO rows excluded). */
        public int checked() {
            int n = 0;
            for (Outcome o : outcomes) {
                if (o.result() != null) {
                    n += (int) o.result().checks().stream().filter(c -> c.verdict() != Check.Verdict.INFO).count();
                }
            }
            return n;
        }

        public int matched() {
            int n = 0;
            for (Outcome o : outcomes) {
                if (o.result() != null) {
                    n += (int) o.result().checks().stream().filter(c -> c.verdict() == Check.Verdict.MATCH).count();
                }
            }
            return n;
        }
    }

    private PapersReport() {
    }

    /**
     * Runs {@link Reproductions#all()} into {@code outDir} (created if missing), printing
     * progress to stderr.
     *
     * @param quick trim sweeps for CI (well under a minute); full mode takes a few minutes at most
     * @return the number of failures: mismatched reference values plus reproductions that did not complete
     */
    public static int run(Path outDir, boolean quick) throws IOException {
        return generate(outDir, new RunOptions(quick), Reproductions.all(), System.err).failures();
    }

    /**
     * Runs {@code reproductions} in order and writes the report.
     *
     * @param log progress lines (one per reproduction); may be null
     */
    public static Summary generate(Path outDir, RunOptions options, List<Reproduction> reproductions, PrintStream log)
            throws IOException {
        Objects.requireNonNull(options, "options");
        Files.createDirectories(outDir);
        List<Outcome> outcomes = new ArrayList<>();
        for (Reproduction r : reproductions) {
            long start = System.nanoTime();
            ReproductionResult result = null;
            String error = null;
            List<String> files = new ArrayList<>();
            try {
                result = r.run(options);
                for (Figure f : result.figures()) {
                    String stem = r.id() + "-" + f.name();
                    f.picture().writePng(outDir.resolve(stem + ".png"));
                    f.picture().writeSvg(outDir.resolve(stem + ".svg"));
                    files.add(stem);
                }
                for (ReproductionResult.DataFile d : result.data()) {
                    Files.writeString(outDir.resolve(r.id() + "-" + d.name() + ".csv"), d.csv());
                }
            } catch (Exception | LinkageError e) {
                error = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            Outcome outcome = new Outcome(r, result, error, files, millis);
            outcomes.add(outcome);
            if (log != null) {
                log.printf("%s %-18s %s (%d ms)%s%n", outcome.passed() ? "✓" : "✗", r.id(), r.title(), millis,
                        error == null ? "" : " — " + error);
            }
        }
        Path index = outDir.resolve("index.html");
        Path markdown = outDir.resolve("report.md");
        Summary summary = new Summary(index, markdown, outcomes, options.quick());
        Files.writeString(index, HtmlReport.write(summary));
        Files.writeString(markdown, MarkdownReport.write(summary));
        if (log != null) {
            log.printf("%d of %d checks held, %d failure(s); report: %s%n", summary.matched(), summary.checked(),
                    summary.failures(), index.toAbsolutePath());
        }
        return summary;
    }
}
