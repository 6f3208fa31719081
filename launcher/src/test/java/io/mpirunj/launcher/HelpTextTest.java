package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code mpirun-j --help}'s command list, shell completion and the man page. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HelpTextTest {

    /** The "Commands:" section of {@code mpirun-j --help}: name to summary, wrapped lines joined. */
    private static Map<String, String> commandList(String help) {
        Map<String, String> summaries = new LinkedHashMap<>();
        List<String> lines = help.lines().toList();
        int i = lines.indexOf("Commands:") + 1;
        assertTrue(i > 0, help);
        String name = null;
        for (; i < lines.size() && !lines.get(i).isBlank(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("   ")) { // "  name   summary...": a new command
                String[] parts = line.trim().split("\\s+", 2);
                name = parts[0];
                summaries.put(name, parts.length > 1 ? parts[1] : "");
            } else {
                summaries.put(name, summaries.get(name) + " " + line.trim());
            }
        }
        return summaries;
    }

    @Test
    void everySubcommandSummaryEndsAtASentenceEnd() {
        LauncherRun run = LauncherRun.of("--help");
        assertEquals(0, run.exitCode(), run::toString);
        Map<String, String> summaries = commandList(run.out());
        assertEquals(Set.of("schedule", "simulate", "papers", "bench", "calibrate", "trace", "generate-completion",
                "generate-manpage", "help"),
                summaries.keySet(), run.out());
        CommandLine cl = MpirunJ.commandLine();
        for (Map.Entry<String, String> e : summaries.entrySet()) {
            String summary = e.getValue();
            assertTrue(summary.endsWith("."), e.getKey() + ": '" + summary + "' ends mid-sentence");
            String description = String.join(" ", cl.getSubcommands().get(e.getKey()).getCommandSpec()
                    .usageMessage().description()).replaceAll("\\s+", " ").trim();
            assertTrue(description.startsWith(summary), e.getKey() + ": '" + summary + "' is not the start of '"
                    + description + "'");
        }
        // the report that started this: the schedule summary stopped at "evaluates it on a cost model or a"
        assertTrue(summaries.get("schedule").contains("on a cost model or a routed fabric"), summaries.get("schedule"));
    }

    /** {@code mpirun-j help [COMMAND]} prints the help, as {@code --help} does (it said "missing -np N"). */
    @Test
    void theHelpCommandPrintsTheHelp() {
        LauncherRun help = LauncherRun.of("help");
        assertEquals(0, help.exitCode(), help::toString);
        assertEquals(LauncherRun.of("--help").out(), help.out());
        LauncherRun bench = LauncherRun.of("help", "bench");
        assertEquals(0, bench.exitCode(), bench::toString);
        assertEquals(LauncherRun.of("bench", "--help").out(), bench.out());
    }

    /** Picocli formats descriptions: a bare '%' (as in "10 %") fails to format and warns on stderr at every --help. */
    @Test
    void everyHelpTextFormatsWithoutWarnings() {
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        java.io.PrintStream original = System.err;
        System.setErr(new java.io.PrintStream(captured, true));
        try {
            renderAll(MpirunJ.commandLine());
        } finally {
            System.setErr(original);
        }
        assertEquals("", captured.toString(), "picocli warned while rendering the help texts");
    }

    private static void renderAll(CommandLine cl) {
        assertTrue(!cl.getUsageMessage().isEmpty(), cl.getCommandName());
        for (CommandLine sub : cl.getSubcommands().values()) {
            renderAll(sub);
        }
    }

    /**
     * Every command's help at picocli's default width (80 columns, COLUMNS unset) keeps its lines within the width
     * and wraps only at spaces: its words are the words of the same help rendered too wide to wrap. picocli breaks a
     * word that does not fit after punctuation (java.text.BreakIterator), which split specs such as
     * {@code hold=A[+Bm],end=C[+Dm],...}, {@code slow:A-B:FACTOR} or {@code io.mpirunj.examples.Ring} across lines.
     */
    @Test
    void noHelpTextSplitsAWordAcrossLines() {
        CommandLine wide = MpirunJ.commandLine();
        wide.setUsageHelpWidth(100_000);
        List<String> problems = new ArrayList<>();
        checkWrapping(MpirunJ.commandLine(), wide, problems); // as users see it: no width set
        assertEquals(List.of(), problems);
    }

    private static void checkWrapping(CommandLine cl, CommandLine wide, List<String> problems) {
        String name = cl.getCommandSpec().qualifiedName();
        int width = 80; // the default, COLUMNS unset (simulate asks for 79)
        String narrow = cl.getUsageMessage();
        for (String line : narrow.lines().toList()) {
            if (line.length() > width) {
                problems.add(name + ": line longer than " + width + ": " + line);
            }
        }
        List<String> words = List.of(wide.getUsageMessage().trim().split("\\s+"));
        List<String> wrapped = List.of(narrow.trim().split("\\s+"));
        int j = 0;
        for (int i = 0; i < words.size() && j < wrapped.size(); i++, j++) {
            String word = words.get(i);
            if (word.equals(wrapped.get(j))) {
                continue;
            }
            StringBuilder pieces = new StringBuilder(wrapped.get(j));
            int first = j;
            while (pieces.length() < word.length() && word.startsWith(pieces.toString()) && j + 1 < wrapped.size()) {
                pieces.append(wrapped.get(++j));
            }
            problems.add(name + ": '" + word + "' split as " + wrapped.subList(first, j + 1));
            if (!word.equals(pieces.toString())) {
                break; // out of step: the words after it would all differ
            }
        }
        for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
            checkWrapping(sub.getValue(), wide.getSubcommands().get(sub.getKey()), problems);
        }
    }

    @Test
    void firstSentenceSkipsAbbreviationsAndParentheses() {
        CommandLine.Model.UsageMessageSpec usage = new CommandLine.Model.UsageMessageSpec()
                .description("Runs it (one rank. Or more) on a model, e.g. LogP,", "then stops. Never reached.");
        assertEquals("Runs it (one rank. Or more) on a model, e.g. LogP, then stops.",
                CommandSummaries.firstSentence(usage));
    }

    @Test
    void bashCompletionCoversTheSubcommandsAndOptions() {
        LauncherRun run = LauncherRun.of("generate-completion");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("complete -F _complete_mpirun-j -o default mpirun-j"), run.out());
        for (String word : List.of("schedule", "simulate", "papers", "bench", "--threads", "--tag-output")) {
            assertTrue(run.out().contains(word), word);
        }
    }

    @Test
    void theManPageIsTroffAroundEveryCommandsHelp() {
        LauncherRun run = LauncherRun.of("generate-manpage");
        assertEquals(0, run.exitCode(), run::toString);
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.get(0).startsWith(".TH \"MPIRUN\\-J\" 1 "), lines.get(0));
        List<String> macros = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith(".") || line.startsWith("'")) {
                macros.add(line.split(" ", 2)[0]);
            }
        }
        // only the man macros we write start a line: help text that starts with . or ' is escaped
        assertTrue(Set.of(".TH", ".SH", ".SS", ".nf", ".fi").containsAll(macros), macros.toString());
        for (String sub : List.of("schedule", "simulate", "papers", "bench")) {
            assertTrue(lines.contains(".SS \"mpirun\\-j " + sub + "\""), sub);
            assertTrue(lines.contains("Usage: mpirun\\-j " + sub + " [\\-h]")
                    || lines.stream().anyMatch(l -> l.startsWith("Usage: mpirun\\-j " + sub + " ")), sub);
        }
        assertEquals("\\&.hidden \\e a", ManPageCommand.escape(".hidden \\ a"));
    }
}
