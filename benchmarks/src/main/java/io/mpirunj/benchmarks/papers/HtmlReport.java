package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.papers.PapersReport.Outcome;
import io.mpirunj.benchmarks.papers.PapersReport.Summary;

/** Writes the report as one self-contained HTML page (inline CSS; images are the PNGs beside it). */
final class HtmlReport {

    private static final String CSS = """
            body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto;
                   max-width: 1150px; color: #222; line-height: 1.45; padding: 0 1em; }
            h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
            .meta, .paper { color: #666; } .desc { max-width: 60em; }
            table { border-collapse: collapse; margin: 0.8em 0; }
            th, td { border: 1px solid #ddd; padding: 0.3em 0.7em; text-align: left; vertical-align: top; }
            th { background: #f4f6f8; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
            .ok { color: #1a7f37; font-weight: bold; } .fail { color: #cf222e; font-weight: bold; }
            .info { color: #888; } .note { color: #555; font-size: 0.92em; }
            tr.failed td { background: #fff0f0; }
            figure { margin: 1.2em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
            figcaption { color: #555; font-size: 0.92em; }
            .error { background: #fff0f0; border: 1px solid #cf222e; padding: 0.6em; white-space: pre-wrap; }
            """;

    private HtmlReport() {
    }

    static String write(Summary s) {
        StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>mpirun-j — papers reproduction report</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>Papers reproduction report</h1>\n");
        h.append("<p class=\"meta\">mpirun-j · mode: ").append(s.quick() ? "quick (trimmed sweeps)" : "full")
                .append(" · model times in the papers' units · ✓ = the check holds: a model-time number "
                        + "equal to the paper's, or a property the paper states, such as a shape or a bound (its row's "
                        + "note says what was compared and why a number may differ) · ✗ = it does not · · = reported "
                        + "without a reference</p>\n");
        int failures = s.failures();
        h.append("<p><span class=\"").append(failures == 0 ? "ok" : "fail").append("\">")
                .append(failures == 0 ? "✓ all checks held" : "✗ " + failures + " failure(s)")
                .append("</span> — ").append(s.matched()).append(" of ").append(s.checked())
                .append(" checks held.</p>\n");

        h.append("<table>\n<tr><th></th><th>reproduction</th><th>paper</th><th>checks held</th><th>time</th></tr>\n");
        for (Outcome o : s.outcomes()) {
            Reproduction r = o.reproduction();
            h.append("<tr><td class=\"").append(o.passed() ? "ok" : "fail").append("\">").append(o.passed() ? "✓" : "✗")
                    .append("</td><td><a href=\"#").append(esc(r.id())).append("\">").append(esc(r.title()))
                    .append("</a></td><td>").append(esc(r.paper().number() + " " + r.paper().shortName()))
                    .append("</td><td class=\"num\">").append(matchedText(o)).append("</td><td class=\"num\">")
                    .append(o.millis()).append(" ms</td></tr>\n");
        }
        h.append("</table>\n");

        for (Outcome o : s.outcomes()) {
            Reproduction r = o.reproduction();
            h.append("<h2 id=\"").append(esc(r.id())).append("\">").append(o.passed() ? "✓ " : "✗ ")
                    .append(esc(r.title())).append("</h2>\n");
            h.append("<p class=\"paper\">Paper ").append(esc(r.paper().number())).append(": ")
                    .append(esc(r.paper().citation())).append(" · id <code>").append(esc(r.id())).append("</code></p>\n");
            h.append("<p class=\"desc\">").append(esc(r.description())).append("</p>\n");
            if (o.error() != null) {
                h.append("<div class=\"error\">✗ did not complete: ").append(esc(o.error())).append("</div>\n");
            }
            if (o.result() == null) {
                continue;
            }
            h.append("<table>\n<tr><th>what</th><th>paper</th><th>ours</th><th>match</th><th>how</th></tr>\n");
            for (Check c : o.result().checks()) {
                String cls = c.verdict() == Check.Verdict.MATCH ? "ok" : c.failed() ? "fail" : "info";
                h.append(c.failed() ? "<tr class=\"failed\">" : "<tr>")
                        .append("<td>").append(esc(c.what())).append("</td><td class=\"num\">").append(esc(c.paperValue()))
                        .append("</td><td class=\"num\">").append(esc(c.ourValue())).append("</td><td class=\"").append(cls)
                        .append("\">").append(c.verdict().mark()).append("</td><td class=\"note\">").append(esc(c.note()))
                        .append("</td></tr>\n");
            }
            h.append("</table>\n");
            for (String note : o.result().notes()) {
                h.append("<p class=\"note\">").append(esc(note)).append("</p>\n");
            }
            for (int i = 0; i < o.figureFiles().size(); i++) {
                String stem = o.figureFiles().get(i);
                Figure f = o.result().figures().get(i);
                h.append("<figure><img src=\"").append(esc(stem)).append(".png\" alt=\"").append(esc(f.picture().title()))
                        .append("\"><figcaption>").append(esc(f.caption())).append(" (<a href=\"").append(esc(stem))
                        .append(".svg\">SVG</a>)</figcaption></figure>\n");
            }
        }
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    static String matchedText(Outcome o) {
        if (o.result() == null) {
            return "—";
        }
        long checked = o.result().checks().stream().filter(c -> c.verdict() != Check.Verdict.INFO).count();
        long matched = o.result().checks().stream().filter(c -> c.verdict() == Check.Verdict.MATCH).count();
        return matched + " / " + checked;
    }

    static String esc(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
