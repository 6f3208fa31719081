package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.papers.PapersReport.Outcome;
import io.mpirunj.benchmarks.papers.PapersReport.Summary;

/** Writes the report as Markdown (GitHub tables; images link the PNGs beside it). */
final class MarkdownReport {

    private MarkdownReport() {
    }

    static String write(Summary s) {
        StringBuilder m = new StringBuilder(8_192);
        m.append("# Papers reproduction report\n\n");
        m.append("Mode: ").append(s.quick() ? "quick (trimmed sweeps)" : "full")
                .append(". Model times in the papers' units. ✓ = the check holds: a model-time number equal to the "
                        + "paper's, or a property the paper states, such as a shape or a bound (its row's note says "
                        + "what was compared and why a number may differ); ✗ = it does not; · = reported without a "
                        + "reference.\n\n");
        int failures = s.failures();
        m.append(failures == 0 ? "**✓ all checks held**" : "**✗ " + failures + " failure(s)**")
                .append(" — ").append(s.matched()).append(" of ").append(s.checked()).append(" checks held.\n\n");
        m.append("| | reproduction | paper | checks held |\n|---|---|---|---|\n");
        for (Outcome o : s.outcomes()) {
            Reproduction r = o.reproduction();
            m.append("| ").append(o.passed() ? "✓" : "✗").append(" | ").append(cell(r.title())).append(" | ")
                    .append(cell(r.paper().number() + " " + r.paper().shortName())).append(" | ")
                    .append(HtmlReport.matchedText(o)).append(" |\n");
        }
        for (Outcome o : s.outcomes()) {
            Reproduction r = o.reproduction();
            m.append("\n## ").append(o.passed() ? "✓ " : "✗ ").append(r.title()).append("\n\n");
            m.append("*Paper ").append(r.paper().number()).append(": ").append(r.paper().citation()).append("* — id `")
                    .append(r.id()).append("`\n\n");
            m.append(r.description()).append("\n\n");
            if (o.error() != null) {
                m.append("**✗ did not complete:** `").append(o.error().replace('`', '\'')).append("`\n\n");
            }
            if (o.result() == null) {
                continue;
            }
            m.append("| what | paper | ours | match | how |\n|---|---:|---:|:---:|---|\n");
            for (Check c : o.result().checks()) {
                m.append("| ").append(cell(c.what())).append(" | ").append(cell(c.paperValue())).append(" | ")
                        .append(cell(c.ourValue())).append(" | ").append(c.verdict().mark()).append(" | ")
                        .append(cell(c.note())).append(" |\n");
            }
            m.append('\n');
            for (String note : o.result().notes()) {
                m.append(note).append("\n\n");
            }
            for (int i = 0; i < o.figureFiles().size(); i++) {
                String stem = o.figureFiles().get(i);
                Figure f = o.result().figures().get(i);
                m.append("![").append(f.picture().title().replace("]", ")")).append("](").append(stem).append(".png)\n\n")
                        .append('*').append(f.caption()).append("* ([SVG](").append(stem).append(".svg))\n\n");
            }
        }
        return m.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
