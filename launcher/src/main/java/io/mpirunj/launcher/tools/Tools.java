package io.mpirunj.launcher.tools;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The machine-readable tool subcommands of {@code mpirun-j}: {@code schedule} (one schedule as a
 * table, JSON or pictures), {@code simulate} (completion time of one or all algorithms) and
 * {@code papers} (the papers report).
 *
 * <p>{@link io.mpirunj.launcher.MpirunJ} registers them in its {@code @Command(subcommands = ...)}.
 * Each command also works stand-alone: {@link #commandLine(Object)}.
 *
 * <p>Exit statuses: 0 done; 1 the computation failed (a {@code papers} reference mismatch, a
 * picture that cannot be written); 2 bad input, one line on stderr, nothing computed.
 */
public final class Tools {

    /** Exit status for bad input (picocli's {@code ExitCode.USAGE}, as the launcher). */
    public static final int USAGE = 2;
    /** Exit status when the work ran but failed. */
    public static final int FAILED = 1;

    private Tools() {
    }

    /**
     * The tools' {@code -h}/{@code --help} (a picocli mixin): {@code mixinStandardHelpOptions} would add a
     * {@code --version} the tools do not have.
     */
    static final class Help {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;
    }

    /**
     * A stand-alone command line for one tool command (tests, or a main of its own): picocli's
     * parse errors are one line on stderr with exit status {@link #USAGE}, as under {@code mpirun-j}.
     */
    public static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            String name = fullName(cmd.getCommandSpec().qualifiedName());
            PrintWriter err = cmd.getErr();
            err.println(name + ": " + badUsageLine(ex, args) + " (see " + name + " --help)");
            err.flush();
            return USAGE;
        });
        return cl;
    }

    /**
     * The one line that says what picocli's parse error {@code ex} is: its message, except that an option's value of
     * the wrong type reads as the commands' own checks do ({@code -np abc (expected: a whole number, at most ...)}), not as
     * picocli words it ({@code Invalid value for option '--np': 'abc' is not an int}).
     */
    public static String badUsageLine(CommandLine.ParameterException ex, String[] args) {
        if (ex.getCause() instanceof CommandLine.TypeConversionException && ex.getArgSpec() instanceof OptionSpec o
                && ex.getValue() != null) {
            String expected = expectedValue(o.type());
            if (expected != null) {
                return typedName(o, ex.getValue(), args) + " " + ex.getValue() + " (expected: " + expected + ")";
            }
        }
        return BadInput.oneLine(ex.getMessage());
    }

    /** The name of {@code o} as typed before {@code value} ({@code -n abc} or {@code --np=abc}), else its first. */
    private static String typedName(OptionSpec o, String value, String[] args) {
        for (int i = 0; i < args.length; i++) {
            for (String name : o.names()) {
                if (args[i].equals(name + "=" + value) || args[i].equals(name) && i + 1 < args.length
                        && args[i + 1].equals(value)) {
                    return name;
                }
            }
        }
        return o.names()[0];
    }

    private static String expectedValue(Class<?> type) {
        if (type == int.class || type == Integer.class) {
            return "a whole number, at most " + Integer.MAX_VALUE;
        }
        if (type == long.class || type == Long.class) {
            return "a whole number, at most " + Long.MAX_VALUE;
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        return null;
    }

    /** "mpirun-j schedule: " for a command named "schedule" (stand-alone) or "mpirun-j schedule". */
    static String prefix(String qualifiedName) {
        return fullName(qualifiedName) + ": ";
    }

    /** "mpirun-j schedule", whether the command runs under mpirun-j or stand-alone. */
    static String fullName(String qualifiedName) {
        return qualifiedName.startsWith("mpirun-j") ? qualifiedName : "mpirun-j " + qualifiedName;
    }

    /**
     * A file an option writes must go into a directory that exists, as for every command's output files
     * ({@code calibrate --out}, {@code bench --write-rules}, {@code --trace}): a mistyped path is bad input, found
     * before anything is computed, rather than a directory tree made in the wrong place.
     */
    static void checkDirectoryOf(String option, Path file) throws BadInput {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new BadInput(option + " " + file + ": no such directory " + dir);
        }
    }

    /** Prints a simulation's wormhole deadlock ({@code message}) as one line of {@code spec}'s command; returns {@link #FAILED}. */
    static int deadlock(CommandLine.Model.CommandSpec spec, String message) {
        return fail(spec, BadInput.oneLine(message), FAILED);
    }

    /** Prints {@code e} as the one-line usage error of {@code spec}'s command; returns {@link #USAGE}. */
    static int usage(CommandLine.Model.CommandSpec spec, BadInput e) {
        return fail(spec, e.getMessage(), USAGE);
    }

    /** Prints {@code line} on {@code spec}'s command's stderr after its name; returns {@code status}. */
    private static int fail(CommandLine.Model.CommandSpec spec, String line, int status) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(prefix(spec.qualifiedName()) + line);
        err.flush();
        return status;
    }
}
