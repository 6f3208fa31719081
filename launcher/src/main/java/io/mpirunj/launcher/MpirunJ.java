package io.mpirunj.launcher;

import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceConfigurationError;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j}: runs an SPMD Java program as N ranks, as processes (default) or as threads of
 * one JVM ({@code --threads}). The top-level command is the run command; later subcommands
 * ({@code schedule}, {@code simulate}, {@code bench}, ...) hang off it.
 *
 * <p>Everything after the main class goes to the program untouched. Bad input (an unknown option, a
 * bad count, a missing or unloadable main class, a missing classpath entry, a bad {@code --coll})
 * is reported as one line on stderr with exit status 2, before anything starts.
 */
@Command(name = "mpirun-j",
        mixinStandardHelpOptions = true,
        versionProvider = MpirunJ.Version.class,
        sortOptions = false,
        // Later issues add their subcommands here: schedule, simulate, bench, papers.
        subcommands = {},
        description = {
            "Runs a Java SPMD program (a class with main that calls Mpi.init) as N ranks:",
            "N JVMs on this host (default), or N threads of one JVM with --threads.",
            "Everything after MainClass is passed to the program untouched.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mpirun-j -np 4 io.mpirunj.examples.Hello",
            "  mpirun-j -np 8 --threads --tag-output io.mpirunj.examples.Ring",
            "  mpirun-j -np 4 -cp 'build/classes:lib/*' com.example.MyApp -x 1 --size 1024",
            "  mpirun-j -np 4 --coll bcast=linear-p2p,alltoall=pairwise \\",
            "      io.mpirunj.examples.CollectivesDemo",
            "  mpirun-j --list-algorithms",
            "",
            "Without -cp the program's classpath is $CLASSPATH (else the current",
            "directory, as for java) plus the bundled examples: io.mpirunj.examples.Hello,",
            "Ring and CollectivesDemo.",
            "",
            "Exit status: 0 if every rank exits 0; else the status of the first rank to",
            "fail (or the code it passed to Comm.abort); 2 for bad usage.",
        })
public final class MpirunJ implements Callable<Integer> {
    /** System property (set by the mpirun-j script): classpath of the bundled examples. */
    public static final String EXAMPLES_PATH_PROP = "mpirunj.examples.path";

    @Spec
    CommandSpec commandSpec;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N", description = "Number of ranks to start.")
    Integer size;

    @Option(names = "--threads", description = "Run the ranks as threads of this JVM instead of as processes.")
    boolean threads;

    @Option(names = {"-cp", "--classpath", "--class-path"}, paramLabel = "CLASSPATH",
            description = "Where the program's classes are (as for java -cp; dir/* means every jar in dir). "
                    + "May be repeated.")
    List<String> classpath = new ArrayList<>();

    @Option(names = "--coll", paramLabel = "OP=ALGO[,OP=ALGO...]",
            description = "Force collective algorithms, e.g. bcast=binomial,alltoall=pairwise "
                    + "(see --list-algorithms).")
    String coll;

    @Option(names = "--tag-output", description = "Prefix every output line with [rank].")
    boolean tagOutput;

    @Option(names = {"-v", "--verbose"}, description = "Report what the launcher does on stderr.")
    boolean verbose;

    @Option(names = "--list-algorithms", description = "List the collective algorithms available and exit "
            + "(* marks the one chosen for each operation).")
    boolean listAlgorithms;

    @Parameters(index = "0", arity = "0..1", paramLabel = "MainClass",
            description = "The program's main class (public static void main(String[])).")
    String mainClass;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "ARGS", description = "The program's arguments.")
    List<String> programArgs = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line: options end at MainClass, bad input is one line on stderr. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new MpirunJ());
        cl.setStopAtPositional(true);
        cl.setParameterExceptionHandler(MpirunJ::onBadUsage);
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            PrintWriter err = cmd.getErr();
            err.println("mpirun-j: internal error: " + ex);
            ex.printStackTrace(err);
            err.flush();
            return 1;
        });
        return cl;
    }

    private static int onBadUsage(CommandLine.ParameterException ex, String[] args) {
        PrintWriter err = ex.getCommandLine().getErr();
        String message = String.valueOf(ex.getMessage()).split("\\R", 2)[0];
        err.println("mpirun-j: " + message + " (see mpirun-j --help)");
        err.flush();
        return UsageException.EXIT_CODE;
    }

    /** slf4j-simple's level property; the launcher's own default is quieter than slf4j-simple's. */
    static final String LOG_LEVEL_PROP = "org.slf4j.simpleLogger.defaultLogLevel";

    @Override
    public Integer call() {
        if (System.getProperty(LOG_LEVEL_PROP) == null) {
            // the launcher reports failures itself; the runtime's warnings about them are noise
            System.setProperty(LOG_LEVEL_PROP, verbose ? "info" : "error");
        }
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintWriter err = commandSpec.commandLine().getErr();
        try {
            CollectiveRegistry registry = registry();
            if (listAlgorithms) {
                out.print(registry.describe());
                out.flush();
                return 0;
            }
            JobSpec spec = validate();
            RankOutput output = new RankOutput(out, err, tagOutput);
            if (threads) {
                return new ThreadJob(spec, output, MpirunJ.class.getClassLoader()).run();
            }
            return new ProcessJob(spec, output, launcherClasspath()).run();
        } catch (UsageException e) {
            err.println("mpirun-j: " + e.getMessage());
            err.flush();
            return UsageException.EXIT_CODE;
        } catch (ServiceConfigurationError e) {
            err.println("mpirun-j: cannot load the collective algorithms (is the build complete?): " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    /** Every algorithm on the launcher's classpath, with {@code --coll} applied (which checks it). */
    private CollectiveRegistry registry() throws UsageException {
        try {
            return new CollectiveRegistry(CollectiveRegistry.discover(MpirunJ.class.getClassLoader()),
                    coll != null ? coll : forcedFromEnvironment());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--coll: " + e.getMessage());
        }
    }

    private static String forcedFromEnvironment() {
        String s = System.getProperty(CollectiveRegistry.PROP_NAME);
        return s != null ? s : System.getenv(CollectiveRegistry.ENV_NAME);
    }

    /** Checks everything that can be checked before a rank starts. */
    JobSpec validate() throws UsageException {
        if (size == null) {
            throw new UsageException("missing -np N (the number of ranks to start)");
        }
        if (size < 1) {
            throw new UsageException("-np " + size + " (expected: a number of ranks >= 1)");
        }
        if (mainClass == null) {
            throw new UsageException("missing the main class to run (usage: mpirun-j -np N [options] MainClass [args...])");
        }
        List<Path> cp = UserClasspath.parse(userClasspathSpec());
        UserClasspath.checkMainClass(mainClass, cp, MpirunJ.class.getClassLoader());
        if (coll != null) {
            coll = coll.trim();
        }
        return new JobSpec(size, mainClass, programArgs, cp, coll, tagOutput, verbose);
    }

    /** This JVM's classpath with absolute entries: what every rank process needs besides the user's classes. */
    static String launcherClasspath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                entries.add(Path.of(e).toAbsolutePath().normalize().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** {@code -cp} if given, else $CLASSPATH or "." (like java), plus the bundled examples. */
    String userClasspathSpec() {
        if (!classpath.isEmpty()) {
            return String.join(File.pathSeparator, classpath);
        }
        String base = System.getenv("CLASSPATH");
        if (base == null || base.isBlank()) {
            base = ".";
        }
        String examples = System.getProperty(EXAMPLES_PATH_PROP);
        return examples == null || examples.isBlank() ? base : base + File.pathSeparator + examples;
    }

    /** {@code --version}: the build's version and the JVM's. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = "unknown";
            try (InputStream in = MpirunJ.class.getResourceAsStream("/mpirunj-version.properties")) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    v = p.getProperty("version", v);
                }
            } catch (IOException ignored) {
                // report "unknown"
            }
            return new String[] {
                "mpirun-j " + v,
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", "
                        + System.getProperty("java.home") + ")",
            };
        }
    }
}
