package io.mpirunj.launcher.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mpirun-j papers}: the report, its exit status and its bad inputs. */
class PapersCommandTest {

    @Test
    void quickReportMatchesEveryReferenceAndSaysWhereItIs(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("report");
        ToolRun run = ToolRun.papers("--quick", "--out", out.toString());
        assertEquals(0, run.exitCode(), run::toString);
        Path index = out.resolve("index.html");
        assertTrue(Files.size(index) > 1000, index.toString());
        assertTrue(Files.exists(out.resolve("report.md")));
        assertTrue(run.out().startsWith("report: " + index.toAbsolutePath() + " ("), run.out());
        assertTrue(run.out().contains(" 0 failures, quick)"), run.out());
        assertTrue(run.err().contains("000-table1"), "progress on stderr: " + run.err());
    }

    @Test
    void outMustBeADirectory(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        ToolRun run = ToolRun.papers("--out", file.toString());
        BadInputTest.assertOneLineUsageError(run, "mpirun-j papers: ", "--out " + file + " exists and is not a directory");
    }

    @Test
    void outIsRequired() {
        ToolRun run = ToolRun.papers("--quick");
        BadInputTest.assertOneLineUsageError(run, "mpirun-j papers: ", "Missing required option: '--out=DIR'");
    }
}
