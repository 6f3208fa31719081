package io.mpirunj.benchmarks.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The SEM section of the papers report: every row holds, and the CSV and chart are written. */
class SemAlltoallCountsTest {

    @Test
    @Timeout(600)
    void semSectionMatchesAndWritesItsDataAndChart(@TempDir Path dir) throws Exception {
        PapersReport.Summary summary = PapersReport.generate(dir, new RunOptions(true), List.of(new SemAlltoallCounts()),
                null);
        PapersReport.Outcome o = summary.outcomes().get(0);
        assertEquals(null, o.error());
        assertEquals(0, o.failures(), () -> o.result().checks().toString());
        assertTrue(o.result().checks().stream().anyMatch(c -> c.what().equals("SEM start-ups, N = 32")
                && c.ourValue().equals("13") && c.paperValue().equals("13")));
        assertTrue(o.result().checks().stream().anyMatch(c -> c.what().equals("diagonal start-ups, N = 32")
                && c.ourValue().equals("18")));
        String counts = Files.readString(dir.resolve("001-sem-counts.csv"));
        assertTrue(counts.contains("16,sem,9,9,2175,1664,2047,2560"), counts);
        assertTrue(counts.contains("16,diagonal,10,10,1280,1280,704,768"), counts);
        String flit = Files.readString(dir.resolve("001-sem-flit-completion.csv"));
        assertEquals(1 + 2 * 3 * 2, flit.lines().count(), flit); // header + 2 sizes x 3 algorithms x 2 sides
        assertTrue(Files.size(dir.resolve("001-sem-flit-completion.png")) > 1000);
    }
}
