package io.mpirunj.launcher;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The "Commands:" list of {@code mpirun-j --help}: each subcommand with the first sentence of its
 * description, wrapped. (picocli's own list shows the first description line, which ends wherever
 * the line was broken.)
 */
final class CommandSummaries {
    private CommandSummaries() {
    }

    /** Makes {@code cl}'s help list its subcommands by their first sentence. */
    static void install(CommandLine cl) {
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, CommandSummaries::render);
    }

    private static String render(Help help) {
        Set<CommandSpec> commands = new LinkedHashSet<>();
        for (Help sub : help.subcommands().values()) {
            if (!sub.commandSpec().usageMessage().hidden()) {
                commands.add(sub.commandSpec());
            }
        }
        if (commands.isEmpty()) {
            return "";
        }
        List<String> names = new ArrayList<>();
        int nameWidth = 0;
        for (CommandSpec c : commands) {
            List<String> all = new ArrayList<>(List.of(c.name()));
            all.addAll(List.of(c.aliases()));
            String name = String.join(", ", all);
            names.add(name);
            nameWidth = Math.max(nameWidth, name.length());
        }
        int width = help.commandSpec().usageMessage().width();
        int first = nameWidth + 4; // two spaces before the name, two after
        TextTable table = TextTable.forColumns(help.colorScheme(),
                new Column(first, 2, Column.Overflow.SPAN),
                new Column(Math.max(20, width - first), 2, Column.Overflow.WRAP));
        int i = 0;
        for (CommandSpec c : commands) {
            table.addRowValues(names.get(i++), firstSentence(c.usageMessage()));
        }
        return table.toString();
    }

    /** The first sentence of the command's header, else of its description (lines joined). */
    static String firstSentence(UsageMessageSpec usage) {
        String[] lines = usage.header().length > 0 ? usage.header() : usage.description();
        String text = String.join(" ", lines).replace("%n", " ").replace("%%", "%").replaceAll("\\s+", " ").trim();
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (c == '.' && depth == 0 && (i + 1 == text.length() || text.charAt(i + 1) == ' ')
                    && !endsWithAbbreviation(text, i)) {
                return text.substring(0, i + 1);
            }
        }
        return text;
    }

    private static boolean endsWithAbbreviation(String text, int dot) {
        String upToDot = text.substring(0, dot + 1);
        return upToDot.endsWith("e.g.") || upToDot.endsWith("i.e.");
    }
}
