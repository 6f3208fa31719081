package io.mpirunj.launcher;

import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j generate-manpage}: the help of {@code mpirun-j} and of every visible subcommand
 * as one troff man page on stdout. The text is picocli's own usage help, so the page never drifts
 * from {@code --help}; troff only adds the man sections around it.
 */
@Command(name = "generate-manpage",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the mpirun-j man page (troff): mpirun-j --help and every command's help.",
            "It installs nothing; to view it:",
            "  mpirun-j generate-manpage > mpirun-j.1 && man ./mpirun-j.1",
            "",
        })
final class ManPageCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        PrintWriter out = spec.commandLine().getOut();
        out.print(render(root));
        out.flush();
        return 0;
    }

    /** The man page of {@code root} and its visible subcommands. */
    static String render(CommandLine root) {
        CommandSpec top = root.getCommandSpec();
        String[] version = top.version();
        StringBuilder page = new StringBuilder();
        page.append(".TH ").append(quote(top.name().toUpperCase(java.util.Locale.ROOT))).append(" 1 \"\" ")
                .append(quote(version.length > 0 ? version[0] : top.name())).append(" \"User Commands\"\n");
        page.append(".SH NAME\n").append(escape(top.name())).append(" \\- ")
                .append(escape(CommandSummaries.firstSentence(top.usageMessage()))).append('\n');
        page.append(".SH SYNOPSIS AND OPTIONS\n");
        preformatted(page, root.getUsageMessage(Ansi.OFF));
        Set<CommandLine> subcommands = new LinkedHashSet<>(root.getSubcommands().values());
        subcommands.removeIf(c -> c.getCommandSpec().usageMessage().hidden());
        if (!subcommands.isEmpty()) {
            page.append(".SH COMMANDS\n");
            for (CommandLine sub : subcommands) {
                page.append(".SS ").append(quote(sub.getCommandSpec().qualifiedName())).append('\n');
                preformatted(page, sub.getUsageMessage(Ansi.OFF));
            }
        }
        return page.toString();
    }

    /** Text shown as it is (no filling or adjusting), escaped for troff. */
    private static void preformatted(StringBuilder page, String text) {
        page.append(".nf\n");
        for (String line : text.split("\\R", -1)) {
            page.append(escape(line)).append('\n');
        }
        page.append(".fi\n");
    }

    /** A troff text line: backslashes written as \e, hyphens as \-, and a leading . or ' made literal. */
    static String escape(String line) {
        String s = line.replace("\\", "\\e").replace("-", "\\-");
        return s.startsWith(".") || s.startsWith("'") ? "\\&" + s : s;
    }

    private static String quote(String argument) {
        return "\"" + escape(argument).replace("\"", "\\(dq") + "\"";
    }
}
