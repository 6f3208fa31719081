package io.mpirunj.launcher.tools;

import io.mpirunj.benchmarks.papers.PapersReport;
import io.mpirunj.benchmarks.papers.Reproductions;
import io.mpirunj.benchmarks.papers.RunOptions;
import io.mpirunj.io.IoErrors;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j papers}: runs every reproduction of the source papers' numbers and writes the
 * report ({@link PapersReport}); exit 1 when any reference value does not match.
 */
@Command(name = "papers",
        sortOptions = false,
        description = {
            "Reproduces the source papers' tables and figures (OPT-tree, OPT-mesh,",
            "Fibonacci, TTCC, SEM, star-graph broadcast) and writes the report:",
            "DIR/index.html (pictures as PNG beside it, SVG copies linked) and",
            "DIR/report.md. For every reproduction: the paper's value, ours, and whether",
            "they match. Progress goes to stderr, one line per reproduction; stdout's",
            "last line says where the report is.",
            "",
        },
        footerHeading = "%n",
        footer = {
            "Examples:",
            "  mpirun-j papers --out target/papers --quick",
            "  mpirun-j papers --out papers-report && xdg-open papers-report/index.html",
            "",
            "Exit status: 0 every reference value matched; 1 some did not, or a",
            "reproduction failed (see the report), or the report could not be written;",
            "2 bad input.",
        })
public final class PapersCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "Where to write the report (created if missing; files in it are overwritten).")
    Path out;

    @Option(names = "--quick", description = "Trimmed sweeps (well under a minute, as CI runs it); the reference "
            + "values are checked all the same.")
    boolean quick;

    @Mixin
    Tools.Help help;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (Files.exists(out) && !Files.isDirectory(out)) {
            return Tools.usage(spec, new BadInput("--out " + out + " exists and is not a directory"));
        }
        PapersReport.Summary summary;
        try (PrintStream log = new PrintStream(new LineForwarder(err), true, StandardCharsets.UTF_8)) {
            summary = PapersReport.generate(out, new RunOptions(quick), Reproductions.all(), log);
        } catch (IOException e) {
            err.println(Tools.prefix(spec.qualifiedName()) + "cannot write the report to " + out + ": "
                    + IoErrors.reason(e));
            err.flush();
            return Tools.FAILED;
        }
        int failures = summary.failures();
        stdout.println("report: " + summary.index().toAbsolutePath() + " (" + summary.matched() + " of "
                + summary.checked() + " checks held, " + failures + " failure" + (failures == 1 ? "" : "s")
                + (summary.quick() ? ", quick" : "") + ")");
        stdout.flush();
        return failures == 0 ? 0 : Tools.FAILED;
    }
}
