package io.mpirunj.benchmarks.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.benchmarks.render.PictureChecks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PapersReportTest {

    @TempDir
    static Path dir;

    static PapersReport.Summary summary;
    static String html;
    static String markdown;

    @BeforeAll
    static void runQuickReport() throws Exception {
        summary = PapersReport.generate(dir, new RunOptions(true), Reproductions.all(), null);
        html = Files.readString(dir.resolve("index.html"));
        markdown = Files.readString(dir.resolve("report.md"));
    }

    @Test
    void everyReproductionMatchesInQuickMode() {
        assertEquals(0, summary.failures(), html);
        assertEquals(summary.checked(), summary.matched());
        assertTrue(summary.checked() >= 30, "checked " + summary.checked());
        for (PapersReport.Outcome o : summary.outcomes()) {
            assertNull(o.error(), o.reproduction().id());
            assertTrue(o.passed(), o.reproduction().id());
        }
        assertTrue(html.contains("✓ all checks held"));
        assertTrue(markdown.contains("**✓ all checks held**"));
    }

    /** A table row whose paper value (possibly annotated) and our value are both {@code value}, marked ✓. */
    private static boolean matchedRow(String text, String what, String value) {
        Pattern row = Pattern.compile("<tr><td>" + Pattern.quote(what) + "</td><td class=\"num\">" + Pattern.quote(value)
                + "( [^<]*)?</td><td class=\"num\">" + Pattern.quote(value) + "</td><td class=\"ok\">✓</td>");
        return row.matcher(text).find();
    }

    @Test
    void table1ValuesAreListedAndMatched() {
        int[] j = {0, 0, 1, 2, 3, 3, 4, 5, 5, 6};
        int[] t = {0, 0, 55, 75, 95, 110, 115, 130, 130, 135};
        for (int i = 2; i <= 9; i++) {
            assertTrue(matchedRow(html, "j_" + i, Integer.toString(j[i])), "j_" + i);
        }
        for (int i = 1; i <= 9; i++) {
            assertTrue(matchedRow(html, "t[" + i + "]", Integer.toString(t[i])), "t[" + i + "]");
        }
        assertTrue(matchedRow(html, "OPT-tree, 9 nodes, event-simulated", "135"));
    }

    @Test
    void sevenNodeAndFibonacciValuesAreListedAndMatched() {
        assertTrue(matchedRow(html, "OPT-tree t[7] (table)", "80"));
        assertTrue(matchedRow(html, "OPT-tree, event-driven", "80"));
        assertTrue(matchedRow(html, "binomial tree, ROUNDS evaluation (the paper's figure)", "120"));
        assertTrue(matchedRow(html, "binomial tree, EVENT evaluation", "90"));
        assertTrue(matchedRow(html, "Fibonacci, K = 8, simulated", "24"));
        assertTrue(matchedRow(html, "Fibonacci, K = 8, eq. (3)–(4)", "24"));
        assertTrue(matchedRow(html, "binary split, K = 8, simulated", "30"));
        assertTrue(matchedRow(html, "binary split, K = 8, eq. (2)", "30"));
        assertTrue(matchedRow(html, "OPT-mesh multicast time", "130"));
        assertTrue(matchedRow(html, "U-mesh, ROUNDS evaluation", "165"));
        // Both evaluations are named for what they are.
        assertTrue(html.contains("ROUNDS") && html.contains("EVENT"));
    }

    @Test
    void picturesReferencedByTheReportExistAndAreDrawings() throws Exception {
        Matcher m = Pattern.compile("<img src=\"([^\"]+\\.png)\"").matcher(html);
        List<String> pngs = new ArrayList<>();
        while (m.find()) {
            pngs.add(m.group(1));
        }
        assertTrue(pngs.size() >= 8, "only " + pngs + " pictures");
        assertTrue(pngs.contains("000-table1-opt-tree-k9-tree.png"));
        assertTrue(pngs.contains("000-table1-opt-tree-k9-timing.png"));
        assertTrue(pngs.contains("000-sweep-k-completion-vs-k.png"));
        for (String png : pngs) {
            PictureChecks.assertNonTrivialPng(dir.resolve(png), 400, 250, 4);
            Path svg = dir.resolve(png.replace(".png", ".svg"));
            assertTrue(Files.size(svg) > 1000, svg + " missing or empty");
            assertTrue(html.contains("href=\"" + svg.getFileName() + "\""));
            assertTrue(markdown.contains("(" + png + ")"), "report.md does not show " + png);
        }
    }

    /** Figures 11–14: every property (ordering, linearity, contention-free) checked and matched, four charts. */
    @Test
    void meshFiguresItemChecksItsPropertiesAndDrawsFourCharts() throws Exception {
        PapersReport.Outcome o = summary.outcomes().stream()
                .filter(x -> x.reproduction().id().equals("000-fig11-14")).findFirst().orElseThrow();
        assertNull(o.error());
        List<Check> checks = o.result().checks();
        List<Check> properties = checks.stream().filter(c -> c.verdict() != Check.Verdict.INFO).toList();
        // 4 orderings + 2 linearities (figures 11, 12) + 4 contention-free.
        assertEquals(10, properties.size(), properties.toString());
        for (Check c : properties) {
            assertEquals(Check.Verdict.MATCH, c.verdict(), c.toString());
        }
        for (int fig = 11; fig <= 14; fig++) {
            String prefix = "fig. " + fig + " ";
            assertTrue(properties.stream().anyMatch(c -> c.what().startsWith(prefix) && c.what().endsWith(
                    "OPT-mesh < OPT-tree < U-mesh") && c.ourValue().startsWith("holds at all 4 ")), "ordering " + fig);
            assertTrue(properties.stream().anyMatch(c -> c.what().startsWith(prefix) && c.what().endsWith(
                    "OPT-mesh contention-free") && c.ourValue().equals("0 events in all 64 runs")), "contention " + fig);
            assertEquals(fig <= 12, properties.stream().anyMatch(c -> c.what().startsWith(prefix)
                    && c.what().endsWith("time linear in message size")), "linearity " + fig);
            String png = "000-fig11-14-fig" + fig + ".png";
            assertTrue(o.figureFiles().contains("000-fig11-14-fig" + fig));
            assertTrue(html.contains("<img src=\"" + png + "\""), png);
            PictureChecks.assertNonTrivialPng(dir.resolve(png), 800, 500, 4);
        }
        // The averaged numbers and the sweep's wall time are reported, as info rows.
        assertTrue(checks.stream().anyMatch(c -> c.verdict() == Check.Verdict.INFO
                && c.what().equals("fig. 11, 32 nodes, 64 KB: OPT-mesh / OPT-tree / U-mesh")));
        assertTrue(checks.stream().anyMatch(c -> c.verdict() == Check.Verdict.INFO
                && c.what().equals("sweep wall time") && c.ourValue().endsWith(" s")));
        assertTrue(markdown.contains("| fig. 12 (128-node multicast): OPT-mesh contention-free | no contention (theorem) "
                + "| 0 events in all 64 runs | ✓ |"));
    }

    /** A stated property that does not hold is a failure like a mismatched value. */
    @Test
    void failedPropertiesAreFailures(@TempDir Path other) throws Exception {
        Reproduction r = new Fake("fake-property", () -> ReproductionResult.builder()
                .check(Check.property("ordering", "a < b", "violated", false, ""))
                .check(Check.property("linear", "linear", "R² 1", true, "")).build());
        PapersReport.Summary s = PapersReport.generate(other, new RunOptions(true), List.of(r), null);
        assertEquals(1, s.failures());
        assertEquals(2, s.checked());
        assertEquals(1, s.matched());
        assertTrue(Files.readString(other.resolve("report.md")).contains("| ordering | a < b | violated | ✗ |"));
    }

    @Test
    void markdownCarriesTheSameRows() {
        assertTrue(markdown.contains("| t[9] | 135 | 135 | ✓ |"));
        assertTrue(markdown.contains("| j_9 | 6 | 6 | ✓ |"));
        assertTrue(markdown.contains("| Fibonacci, K = 8, simulated | 24 | 24 | ✓ |"));
        for (Reproduction r : Reproductions.all()) {
            assertTrue(markdown.contains(r.title()), r.id());
            assertTrue(html.contains("id=\"" + r.id() + "\""), r.id());
        }
    }

    /** A reproduction that disagrees with its paper and one that crashes: both counted, neither stops the run. */
    @Test
    void mismatchesAndCrashesAreCountedNotThrown(@TempDir Path other) throws Exception {
        Reproduction wrong = new Fake("fake-wrong", () -> ReproductionResult.builder()
                .exact("answer", 42, 41, "off by one").exact("fine", 1, 1, "").build());
        Reproduction crash = new Fake("fake-crash", () -> {
            throw new IllegalStateException("boom");
        });
        Reproduction after = new Fake("fake-after", () -> ReproductionResult.builder()
                .check(Check.info("no reference", "7", "")).build());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PapersReport.Summary s = PapersReport.generate(other, new RunOptions(true), List.of(wrong, crash, after),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(2, s.failures());
        assertEquals(2, s.checked());
        assertEquals(1, s.matched());
        assertFalse(s.outcomes().get(0).passed());
        assertTrue(s.outcomes().get(2).passed(), "INFO rows never fail");
        String page = Files.readString(other.resolve("index.html"));
        assertTrue(page.contains("✗ 2 failure(s)"));
        assertTrue(page.contains("<tr class=\"failed\"><td>answer</td><td class=\"num\">42</td><td class=\"num\">41</td>"
                + "<td class=\"fail\">✗</td>"));
        assertTrue(page.contains("did not complete: IllegalStateException: boom"));
        String md = Files.readString(other.resolve("report.md"));
        assertTrue(md.contains("| answer | 42 | 41 | ✗ |"));
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("✗ fake-crash"));
    }

    @Test
    void mainReturnsExitCodes(@TempDir Path other) {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, PapersMain.run(new String[] {"--out", other.toString(), "--quick"}, quiet));
        assertTrue(Files.exists(other.resolve("index.html")));
        assertEquals(2, PapersMain.run(new String[] {"--quick"}, quiet));
        assertEquals(2, PapersMain.run(new String[] {"--out"}, quiet));
        assertEquals(2, PapersMain.run(new String[] {"--out", other.toString(), "--bogus"}, quiet));
        assertEquals(0, PapersMain.run(new String[] {"--help"}, quiet));
    }

    @Test
    void exactChecksCompareModelTimes() {
        assertEquals(Check.Verdict.MATCH, Check.exact("x", 135, 135.0, "").verdict());
        assertEquals(Check.Verdict.MATCH, Check.exact("x", 0.3, 0.1 + 0.2, "").verdict());
        assertEquals(Check.Verdict.MISMATCH, Check.exact("x", 135, 135.5, "").verdict());
        assertEquals("135.5", Check.exact("x", 135, 135.5, "").ourValue());
    }

    private record Fake(String id, Body body) implements Reproduction {
        interface Body {
            ReproductionResult run() throws Exception;
        }

        @Override
        public Paper paper() {
            return Paper.P000;
        }

        @Override
        public String title() {
            return "fake " + id;
        }

        @Override
        public String description() {
            return "test double";
        }

        @Override
        public ReproductionResult run(RunOptions options) throws Exception {
            return body.run();
        }
    }
}
