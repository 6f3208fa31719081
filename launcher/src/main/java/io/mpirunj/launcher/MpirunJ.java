package io.mpirunj.launcher;

import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.io.IoErrors;
import io.mpirunj.launcher.bench.BenchCommand;
import io.mpirunj.launcher.calibrate.CalibrateCommand;
import io.mpirunj.launcher.hosts.Host;
import io.mpirunj.launcher.hosts.HostList;
import io.mpirunj.launcher.hosts.JobLayout;
import io.mpirunj.launcher.hosts.LaunchAgent;
import io.mpirunj.launcher.hosts.Placement;
import io.mpirunj.launcher.tools.PapersCommand;
import io.mpirunj.launcher.tools.ScheduleCommand;
import io.mpirunj.launcher.tools.SimulateCommand;
import io.mpirunj.launcher.tools.TraceCommand;
import io.mpirunj.launcher.tools.Tools;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.runtime.bootstrap.slurm.SlurmStep;
import io.mpirunj.runtime.transport.tcp.NettyIo;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.wire.AddressTable;
import io.mpirunj.runtime.wire.ControlMessage;
import io.mpirunj.runtime.wire.Endpoint;
import io.mpirunj.runtime.wire.Register;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceConfigurationError;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j}: runs an SPMD Java program as N ranks, as processes (default) or as threads of
 * one JVM ({@code --threads}). The top-level command is the run command; the tools hang off it as
 * subcommands: {@code schedule}, {@code simulate}, {@code papers} and {@code bench}.
 *
 * <p>The main class may be a source file ({@code Pi.java}): {@link SourceProgram} compiles it once,
 * before any rank starts. Everything after the main class goes to the program untouched. Bad input (an unknown option, a
 * bad count, a missing or unloadable main class, a missing classpath entry, a bad {@code --coll},
 * {@code --timeout}, {@code -x} or {@code -J}, a bad value of an {@code MPIRUNJ_*} variable the ranks read:
 * {@link RankSettings}) is reported as one line on stderr with exit status 2,
 * before anything starts. Exit statuses: {@link ExitCodes}.
 */
@Command(name = "mpirun-j",
        mixinStandardHelpOptions = true,
        versionProvider = MpirunJ.Version.class,
        sortOptions = false,
        abbreviateSynopsis = true, // 30-odd options: the list below describes them (Open MPI's mpirun says "[options]")
        // subcommands: SUBCOMMANDS (a word that names one is taken as one; anything else is a main class)
        description = {
            "Runs a Java SPMD program (a class with main that calls Mpi.init) as N ranks:",
            "N JVMs on this host (default) or on the hosts of --hostfile/--host, or N threads",
            "of one JVM with --threads.",
            "Everything after MainClass is passed to the program untouched.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mpirun-j -np 4 io.mpirunj.examples.Hello",
            "  mpirun-j -np 4 Pi.java 1000000",
            "  mpirun-j -np 8 --threads --tag-output io.mpirunj.examples.Ring",
            "  mpirun-j -np 4 -cp 'build/classes:lib/*' com.example.MyApp -x 1 --size 1024",
            "  mpirun-j -np 4 -jar app.jar --size 1024",
            "  mpirun-j -np 4 -x OMP_NUM_THREADS=1 -x HOME -J -Xmx512m --timeout 60 \\",
            "      --output-filename out/ com.example.MyApp",
            "  mpirun-j -np 4 --coll bcast=linear-p2p,alltoall=pairwise \\",
            "      io.mpirunj.examples.CollectivesDemo",
            "  mpirun-j --list-algorithms",
            "  mpirun-j --hostfile hosts -np 8 -cp /shared/app com.example.MyApp",
            "  mpirun-j --hostfile hosts --launch-agent 'docker exec' \\",
            "      --rendezvous-host 172.18.0.1 \\",
            "      io.mpirunj.examples.Hello",
            "",
            "Without -cp or -jar the program's classpath is $CLASSPATH (else the current",
            "directory, as for java) plus the bundled examples: io.mpirunj.examples.Hello,",
            "Ring and CollectivesDemo.",
            "",
            "Every rank finds its identity in its environment: OMPI_COMM_WORLD_RANK,",
            "OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_SIZE,",
            "PMI_RANK, PMI_SIZE (process mode; never in its arguments).",
            "",
            "Environment: MPIEXEC_TIMEOUT=SECONDS (as --timeout, which wins);",
            "MPIRUNJ_COLL=op=algorithm,... (as --coll); MPIRUNJ_COLL_RULES=FILE (as",
            "--coll-rules); MPIRUNJ_MODEL=SPEC (as --model); MPIRUNJ_CDS=off (no class-data",
            "sharing archive for the rank JVMs; it is kept under $XDG_CACHE_HOME/mpirun-j",
            "or ~/.cache/mpirun-j, or MPIRUNJ_CDS_DIR). The launcher checks these and the",
            "ranks' other settings (MPIRUNJ_EAGER_LIMIT, MPIRUNJ_EAGER_CREDIT_BYTES,",
            "MPIRUNJ_TRANSPORT, MPIRUNJ_FABRIC*, MPIRUNJ_PLACEMENT, MPIRUNJ_TRACE) before",
            "starting any rank: a bad value is a usage error (status 2).",
            "",
            "%s",
        })
public final class MpirunJ implements Callable<Integer> {
    /** The job's time limit in seconds when {@code --timeout} is not given (as Open MPI and MPICH). */
    static final String TIMEOUT_ENV = "MPIEXEC_TIMEOUT";

    /**
     * The most ranks {@code --threads} starts. Every rank keeps per-peer state, so a job's memory grows with the
     * square of its size: here (24 GB, the default heap of 6 GB, 2 cores) np 8,000 of Hello ran in 20 s with a
     * 5.2 GB resident set and np 16,000 ran out of heap. The limit is what a launcher heap of about 25 GB
     * ({@code MPIRUNJ_JAVA_OPTS=-Xmx25g}) may run; a larger count is refused as bad usage.
     */
    static final int MAX_THREAD_RANKS = 16_384;
    /**
     * The most ranks run as processes (a JVM each, on this host or on the hosts' slots, see
     * {@code --oversubscribe}): far more than any host list here can hold, a guard against a mistyped count.
     */
    static final int MAX_PROCESS_RANKS = 65_536;

    /** System property (set by the mpirun-j script): classpath of the bundled examples. */
    public static final String EXAMPLES_PATH_PROP = "mpirunj.examples.path";

    @Spec
    CommandSpec commandSpec;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N", description = "Number of ranks to start (at most "
            + MAX_PROCESS_RANKS + " processes or " + MAX_THREAD_RANKS + " threads).")
    Integer size;

    @Option(names = "--threads", description = "Run the ranks as threads of this JVM instead of as processes.")
    boolean threads;

    @Option(names = {"-cp", "--classpath", "--class-path"}, paramLabel = "CLASSPATH",
            description = "Where the program's classes are (as for java -cp; dir/* means every jar in dir). "
                    + "May be repeated.")
    List<String> classpath = new ArrayList<>();

    @Option(names = "--coll", paramLabel = "OP=ALGO[,OP=ALGO...]",
            description = {"Force collective algorithms, e.g.",
                "bcast=binomial,alltoall=pairwise",
                "(see --list-algorithms). OP=auto picks the fastest under --model per call (within 10 %% of "
                        + "it: what runs without auto; with cpus=C, the least mean time in the call), then tries "
                        + "live what the model cannot rule out (--coll-tune)."})
    String coll;

    @Option(names = "--coll-rules", paramLabel = "FILE",
            description = "Choose collective algorithms by the rules in FILE (JSON: per op, rank-count and "
                    + "message-size ranges -> algorithm; see the README). --coll wins over it, it over auto.")
    Path collRules;

    @Option(names = "--coll-report", description = "At exit, rank 0 prints which collective algorithm ran per "
            + "op and size class, how often, how it was chosen and its mean time (and auto's prediction).")
    boolean collReport;

    @Option(names = "--check-collectives", description = "Before each collective call the ranks compare what they "
            + "called (operation, root, size); calls that do not match fail on every rank, naming each rank's call, "
            + "instead of running with another call's data or hanging. One small exchange per call: for debugging.")
    boolean checkCollectives;

    @Option(names = "--coll-tune", paramLabel = "ROUNDS",
            description = "auto runs the algorithms its model cannot rule out (predicted within 50 %% of the fastest) "
                    + "for real, per op and size class: blocks of calls per candidate, four trials each after twice "
                    + "the calls, with ROUNDS, 2xROUNDS, 4xROUNDS and 8xROUNDS timed calls a block; it keeps the one "
                    + "the ranks measured fastest (default " + RuntimeConfig.COLL_TUNE_DEFAULT
                    + "; 0: run the model's pick untried).")
    Integer collTune;

    @Option(names = "--model", paramLabel = "SPEC",
            description = {"The cost model model-built schedules plan with and auto predicts with, as for "
                    + "mpirun-j simulate --model:",
                "hold=A[+Bm],end=C[+Dm] (t_hold, t_end > 0; m: bytes), optionally with fields ports=P, cpus=C, "
                        + "wake=W[+Xm] (with cpus) and rndv=R,",
                "or " + ModelSpec.LOGP_FORM + ".",
                "Default: hold=20+0.02m,end=55+0.07m (the IBM SP model); processes on TCP: the built-in TCP model, "
                        + "with cpus=CORES and a fitted wake when the ranks outnumber this host's cores, and "
                        + "rndv=BYTES: the size above which TCP sends by rendezvous."})
    String model;

    @Mixin
    LaunchOptions.Network fabricOptions;

    @Option(names = "--fabric-fault", paramLabel = "FAULT",
            description = {"A fault of the emulated fabric (repeatable):",
                "slow:A-B:FACTOR (link A-B FACTOR times slower),",
                "drop:A-B[@TIME] (link down from model time TIME: a message across it is lost and its two ranks "
                        + "see each other failed),",
                "jitter:SIGMA[:SEED] (every message late by |N(0, SIGMA)| units).",
                "A, B: adjacent node addresses, e.g. 0/1-0/2."})
    List<String> fabricFaults = new ArrayList<>();

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Record every message (rank, peer, tag, size, send and delivery on the job's clock) in FILE "
                    + "(JSON lines; ranks as processes write FILE.rN); see mpirun-j trace.")
    Path traceFile;

    @Option(names = "-jar", paramLabel = "JAR",
            description = "Run the program in JAR (its manifest's Main-Class); the first argument after "
                    + "the options is then the program's.")
    String jar;

    @Option(names = "-x", paramLabel = "VAR[=VALUE]",
            description = "Set VAR in every rank's environment: to VALUE, or to its value here. May be repeated.")
    List<String> exports = new ArrayList<>();

    @Mixin
    LaunchOptions.JvmArgs jvm;

    @Option(names = "--tag-output", description = "Prefix every output line with [rank].")
    boolean tagOutput;

    @Option(names = "--timestamp-output", description = "Prefix every output line with the local time "
            + "[yyyy-MM-dd HH:mm:ss.SSS].")
    boolean timestampOutput;

    @Option(names = "--output-filename", paramLabel = "DIR",
            description = "Write each rank's output (stdout and stderr) to DIR/rank.R instead of the console.")
    Path outputDir;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "Stop the job after SECONDS (default: $MPIEXEC_TIMEOUT, else no limit); report "
                    + "what each rank was doing and exit with status 124.")
    String timeout;

    @Mixin
    LaunchOptions.Oversubscribe oversubscription;

    /**
     * Rank JVMs keep the JVM's own compile thresholds instead of {@code ProcessJob.RANK_STARTUP_JIT_OPTIONS}. Hidden:
     * {@code bench} sets it for its jobs, which time steady-state code (with the start-up thresholds hot code
     * reaches C1 and C2 later, so the benchmark's JIT warm-up ran out before the JIT was done and the first timed
     * size could run half-compiled code).
     */
    @Option(names = STEADY_STATE_JIT, hidden = true)
    boolean steadyStateJit;

    /** The hidden run-command option behind {@link #steadyStateJit}. */
    public static final String STEADY_STATE_JIT = "--steady-state-jit";

    @Option(names = "--srun-rank", description = "Be one rank of a job that srun starts directly "
            + "(srun -n 16 mpirun-j --srun-rank MyApp): the ranks meet without a launcher; see the README's Slurm "
            + "section.")
    boolean srunRank;

    @Mixin
    LaunchOptions.Hosts launchHosts;

    @Option(names = {"-v", "--verbose"}, description = "Report what the launcher does on stderr.")
    boolean verbose;

    @Option(names = "--list-algorithms", description = "List the collective algorithms available and exit "
            + "(* marks the one chosen for each operation).")
    boolean listAlgorithms;

    @Parameters(index = "0", arity = "0..1", paramLabel = "MainClass",
            description = "The program's main class (one with public static void main), or a source file, e.g. "
                    + "Pi.java, compiled once against the API and -cp (its first class is run).")
    String mainClass;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "ARGS", description = "The program's arguments.")
    List<String> programArgs = new ArrayList<>();

    /** Where {@code -x VAR}, {@code MPIEXEC_TIMEOUT} and {@code CLASSPATH} are read (tests substitute it). */
    Map<String, String> environment = System.getenv();

    /**
     * The byte streams under the command line's writers ({@link #main}: System.out and System.err), through which
     * the ranks' output passes byte for byte; null where the writers have none (tests), and the output is text.
     */
    PrintStream consoleOut;
    PrintStream consoleErr;

    /** The tools, in the order of the help's command list (then generate-completion, generate-manpage and help). */
    static final List<Class<?>> SUBCOMMANDS = List.of(ScheduleCommand.class, SimulateCommand.class,
            PapersCommand.class, BenchCommand.class, CalibrateCommand.class, TraceCommand.class);
    /**
     * The words that make a command line need its subcommands: their names (MpirunJParseTest checks them
     * against the whole command line's; reading them from the annotations took a tenth of the launcher's
     * parsing), and the options that print the help (which lists the subcommands) or the version.
     */
    static final Set<String> SUBCOMMAND_WORDS = Set.of("schedule", "simulate", "papers", "bench", "calibrate", "trace",
            "generate-completion", "generate-manpage", "help", "-h", "--help", "-V", "--version");

    public static void main(String[] args) {
        if (runsWithoutSubcommands(args)) {
            warmUpInBackground();
        }
        int status;
        try {
            CommandLine cl = commandLine(System.getenv(), args);
            // over System.out itself, so that checkError sees a failed write (a closed pipe: RankOutput stops the
            // job); picocli's own writer goes through an encoder, and System.out keeps the error to itself
            cl.setOut(new PrintWriter(System.out, true));
            MpirunJ command = cl.getCommand();
            command.consoleOut = System.out;
            command.consoleErr = System.err;
            status = cl.execute(args);
        } catch (OutOfMemoryError e) {
            // input too large for this JVM's heap (a schedule of millions of ranks): what held it is garbage now
            System.err.println("mpirun-j: out of memory (this JVM's heap: at most "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB): give the command less to hold, or the JVM more "
                    + "heap with MPIRUNJ_JAVA_OPTS=-Xmx...");
            status = ExitCodes.FAILED;
        }
        System.exit(status);
    }

    /**
     * While picocli reads the command line (~0.2 s on one core, with the other idle: no rank runs yet), does on
     * another thread the JDK work that later stood between the parsed command line and the first rank: the NIO
     * selector provider's service lookup (the rendezvous server's NIO event loop opens a selector), which opens every
     * jar of the launcher's class path, the security providers behind the ranks' archive key, and the first
     * encoding and decoding of the control messages (protobuf's message schemas, built by reflection, and the
     * {@code java.util.logging} set-up behind its encoder), which the rendezvous otherwise does cold as the first
     * ranks register, while they wait for its answer. Nothing here touches Netty or slf4j, which read settings
     * the command line decides.
     *
     * <p>First of all it reads the annotations that picocli reads as it builds the command line: the JDK keeps a
     * member's parsed annotations (usually parsed once), and the first annotation of each type costs a proxy class
     * generated in the interpreter (picocli's {@code Command}, {@code Option}, {@code Mixin}, {@code Spec},
     * {@code Parameters}): half of building the command line, which this takes off its thread (~45 ms sooner to
     * the first rank). The fields are read last to first, so the two threads start at opposite ends.
     */
    private static void warmUpInBackground() {
        Thread t = new Thread(() -> {
            try {
                readAnnotations(MpirunJ.class);
            } catch (Throwable e) { // as below; the rest of the warm-up still runs
                // picocli reads them itself
            }
            try {
                java.nio.channels.spi.SelectorProvider.provider();
                java.security.MessageDigest.getInstance("SHA-256");
                ControlMessage.parseFrom(ControlMessage.newBuilder().setRegister(Register.newBuilder().setRank(1))
                        .build().toByteArray());
                ControlMessage.parseFrom(ControlMessage.newBuilder().setAddressTable(AddressTable.newBuilder()
                        .addEndpoints(Endpoint.newBuilder().setHost("localhost").setPort(1))).build().toByteArray());
            } catch (Throwable e) { // not even an Error may print from this thread
                // the same work runs again where it is needed (a class that failed to initialise fails there too)
            }
        }, "mpirunj-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Reads the annotations of {@code type} and its superclasses, of their members and of their {@code @Mixin}s'
     * types (see above; an {@code @ArgGroup}'s type or {@code @Command(mixins = ...)} would need adding here).
     */
    static void readAnnotations(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            Field[] fields = c.getDeclaredFields();
            for (int i = fields.length - 1; i >= 0; i--) {
                if (fields[i].isAnnotationPresent(Mixin.class)) {
                    readAnnotations(fields[i].getType());
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                m.getDeclaredAnnotations();
            }
            c.getDeclaredAnnotations();
        }
    }

    /** The configured command line: options end at MainClass, bad input is one line on stderr. */
    public static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    /** As {@link #commandLine()}, reading the launcher's environment from {@code env}. */
    static CommandLine commandLine(Map<String, String> env) {
        return commandLine(env, true);
    }

    /**
     * The command line that parses {@code args} as {@link #commandLine(Map)} does: without the subcommands
     * when {@code args} start with an option and no word of them names a subcommand or asks for help or the
     * version, as in a plain run. picocli builds every subcommand's model up front, and that was a third of
     * the launcher's Java samples in a plain run.
     */
    static CommandLine commandLine(Map<String, String> env, String[] args) {
        return commandLine(env, !runsWithoutSubcommands(args));
    }

    /** True if {@code args} start with an option and none is a subcommand's name or a help or version option. */
    static boolean runsWithoutSubcommands(String[] args) {
        if (args.length == 0 || !args[0].startsWith("-")) {
            return false; // a subcommand, a main class alone, or nothing (the usage lists the subcommands)
        }
        for (String a : args) {
            if (SUBCOMMAND_WORDS.contains(a)) {
                return false;
            }
        }
        return true;
    }

    private static CommandLine commandLine(Map<String, String> env, boolean withSubcommands) {
        MpirunJ command = new MpirunJ();
        command.environment = env;
        CommandLine cl = new CommandLine(command);
        if (withSubcommands) {
            for (Class<?> c : SUBCOMMANDS) {
                cl.addSubcommand(c);
            }
            // shell completion and the man page, generated from this command line (installed by nothing)
            CommandLine completion = new CommandLine(new AutoComplete.GenerateCompletion());
            completion.getCommandSpec().usageMessage().hidden(false);
            cl.addSubcommand(completion);
            cl.addSubcommand(new ManPageCommand());
            CommandLine help = new CommandLine(new CommandLine.HelpCommand()); // as git and picocli tools have
            String says = "Prints the help of mpirun-j, or of COMMAND (as COMMAND --help does).";
            help.getCommandSpec().usageMessage().header(says).description(says);
            cl.addSubcommand(help);
        }
        cl.setStopAtPositional(true);
        if (withSubcommands) {
            cl.getSubcommands().get("trace").setStopAtPositional(false); // mpirun-j trace FILE --png OUT
        }
        String footer = String.join(System.lineSeparator(), ExitCodes.HELP);
        cl.getCommandSpec().usageMessage().footer(Arrays.stream(cl.getCommandSpec().usageMessage().footer())
                .map(l -> l.equals("%s") ? footer.replace("%", "%%") : l).toArray(String[]::new));
        CommandSummaries.install(cl);
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
        String message = Tools.badUsageLine(ex, args);
        // a subcommand's own help ("mpirun-j trace --help"), where its options are
        err.println("mpirun-j: " + message + " (see " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
        err.flush();
        return UsageException.EXIT_CODE;
    }

    /** slf4j-simple's level property; the launcher's own default is quieter than slf4j-simple's. */
    static final String LOG_LEVEL_PROP = "org.slf4j.simpleLogger.defaultLogLevel";

    /** The launcher's log level, and its ranks': what {@code -v} shows. */
    static String logLevel(boolean verbose) {
        return verbose ? "info" : "error";
    }

    @Override
    public Integer call() {
        if (System.getProperty(LOG_LEVEL_PROP) == null) {
            // the launcher reports failures itself; the runtime's warnings about them are noise
            System.setProperty(LOG_LEVEL_PROP, logLevel(verbose));
        }
        RankMain.useBundledLogProvider();
        NettyIo.applyDefaults(); // the rendezvous server, and the ranks with --threads
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintWriter err = commandSpec.commandLine().getErr();
        try {
            checkModel();
            // With the ranks as processes and no choice to check, the launcher needs no registry (each rank
            // makes its own at its first collective): building one was a seventh of the launcher's Java profile.
            CollectiveRegistry registry = threads || listAlgorithms || forcedCollectives() != null || collRules != null
                    || rulesFromEnvironment() != null ? registry() : null;
            if (listAlgorithms) {
                out.print(registry.describe(CatalogueListing::traits));
                out.flush();
                return 0;
            }
            boolean slurm = !threads && launchHosts.hostfile == null && launchHosts.hostOption == null
                    && SlurmLaunch.insideAllocation(environment);
            if (srunRank) {
                checkSrunRank();
            } else if (slurm && size == null) {
                size = SlurmLaunch.allocationTasks(environment); // as mpirun: one rank per allocated task
            }
            JobSpec spec = validate(err);
            if (srunRank) {
                return SlurmLaunch.runRank(spec);
            }
            JobLayout layout = layout(spec.size());
            RankOutput output;
            try {
                output = RankOutput.open(out, consoleOut, err, consoleErr, spec.output(), spec.size());
            } catch (IOException e) {
                throw new UsageException("--output-filename " + outputDir + ": cannot create the output files: " + IoErrors.reason(e));
            }
            try (output) {
                if (threads) {
                    try {
                        return new ThreadJob(spec, output, MpirunJ.class.getClassLoader(), registry).run();
                    } catch (OutOfMemoryError e) {
                        // setting up the job (every rank's state, its thread) or running it ran out of heap; what
                        // held it is garbage now
                        output.flush();
                        err.println("mpirun-j: out of memory with " + spec.size() + " ranks as threads (this JVM's "
                                + "heap: at most " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB): run fewer ranks, "
                                + "or give the launcher more heap with MPIRUNJ_JAVA_OPTS=-Xmx...");
                        err.flush();
                        return ExitCodes.FAILED;
                    }
                }
                if (slurm) {
                    return SlurmLaunch.runInAllocation(spec, RankClasspath.of(launcherClasspath()), output);
                }
                return new ProcessJob(spec, layout, output, RankClasspath.of(launcherClasspath())).run();
            }
        } catch (UsageException e) {
            err.println("mpirun-j: " + e.getMessage());
            err.flush();
            return UsageException.EXIT_CODE;
        } catch (ServiceConfigurationError e) {
            err.println("mpirun-j: cannot load the collective algorithms (is the build complete?): " + e.getMessage());
            err.flush();
            return 1;
        } finally {
            if (source != null) {
                source.close();
            }
        }
    }

    /**
     * Every algorithm on the launcher's classpath, with {@code --coll} (else the property or environment
     * variable, as {@link io.mpirunj.runtime.RuntimeConfig#from} reads them) applied, which checks it.
     */
    private CollectiveRegistry registry() throws UsageException {
        if (coll != null && coll.replace(",", "").isBlank()) {
            // an empty value, as from --coll "$UNSET": no choice at all is more likely a mistake than a wish
            throw new UsageException("--coll '" + coll + "' names no algorithm (expected: op=algorithm[,op=algorithm"
                    + "...], e.g. bcast=binomial; without --coll the defaults run)");
        }
        String forced = forcedCollectives();
        String rules = collRules != null ? collRules.toAbsolutePath().normalize().toString()
                : rulesFromEnvironment() == null ? null : RankSettings.rulesPath(rulesFromEnvironment());
        try {
            return CollectiveRegistry.of(forced, rules, MpirunJ.class.getClassLoader());
        } catch (IllegalArgumentException e) {
            boolean inRules = rules != null && e.getMessage().startsWith(rules);
            if (inRules && collRules == null) {
                throw new UsageException(RuntimeConfig.COLL_RULES_ENV + "=" + rulesFromEnvironment() + ": "
                        + e.getMessage());
            }
            if (!inRules && coll == null) {
                String name = System.getProperty(CollectiveRegistry.PROP_NAME) != null
                        ? "-D" + CollectiveRegistry.PROP_NAME : CollectiveRegistry.ENV_NAME;
                throw new UsageException(name + "=" + forced + ": " + e.getMessage());
            }
            throw new UsageException((inRules ? "--coll-rules " : "--coll: ") + e.getMessage());
        }
    }

    /**
     * An algorithm forced ({@code --coll}, {@code -Dmpirunj.coll}, {@code MPIRUNJ_COLL}) that runs only on a fabric
     * the job names needs one ({@code --fabric}, or {@code MPIRUNJ_FABRIC} in {@code ranks}, the ranks' settings):
     * without one the ranks would run the default in its place (as they do, with a warning, on a fabric that does not suit
     * it). A schedule file forced ({@code bcast=file:FILE.json}) over more ranks than the job has cannot run on any of
     * its communicators: each rank would fail with a stack trace at its first call.
     */
    private void checkForcedCanRun(Map<String, String> ranks) throws UsageException {
        String property = System.getProperty(CollectiveRegistry.PROP_NAME);
        String forced = coll != null ? coll : property != null ? property : ranks.get(CollectiveRegistry.ENV_NAME);
        if (blank(forced)) {
            return;
        }
        boolean noFabric = blank(ranks.get(RuntimeConfig.FABRIC_ENV));
        String where = coll != null ? "--coll " : (property != null ? "-D" + CollectiveRegistry.PROP_NAME
                : CollectiveRegistry.ENV_NAME) + "=" + forced + ": ";
        for (var f : CollectiveRegistry.parseSpec(forced).entrySet()) {
            if (noFabric) {
                checkNeedsNoFabric(where, f.getKey(), f.getValue());
            }
            String file = f.getValue().startsWith("file:") ? f.getValue().substring("file:".length()) : null;
            if (file != null) {
                int scheduleRanks;
                try {
                    scheduleRanks = io.mpirunj.collectives.schedule.ScheduleJson.read(Files.readString(Path.of(file)))
                            .ranks();
                } catch (IOException | RuntimeException e) {
                    continue; // the registry has said what is wrong with the file
                }
                if (scheduleRanks > size) {
                    throw new UsageException(where + f.getKey().cliName() + "=" + f.getValue() + " is a schedule over "
                            + scheduleRanks + " ranks, more than the job's " + size + " (-np " + size + ")");
                }
            }
        }
    }

    /** As {@link #checkForcedCanRun}, for the fabric of the algorithms the rules file in {@code ranks} names. */
    private void checkRulesHaveTheirFabric(Map<String, String> ranks) throws UsageException {
        String rules = ranks.get(RuntimeConfig.COLL_RULES_ENV);
        if (blank(rules) || !blank(ranks.get(RuntimeConfig.FABRIC_ENV))) {
            return;
        }
        String where = (collRules != null ? "--coll-rules " : RuntimeConfig.COLL_RULES_ENV + "=") + rules + ": ";
        for (io.mpirunj.runtime.spi.CollRules.Rule r : io.mpirunj.runtime.spi.CollRules.load(Path.of(rules)).rules()) {
            checkNeedsNoFabric(where + r.where() + ": ", r.op(), r.algorithm());
        }
    }

    private static void checkNeedsNoFabric(String where, CollectiveOp op, String algorithm) throws UsageException {
        var traits = io.mpirunj.collectives.catalogue.AlgorithmCatalogue.fabricOnly(op, algorithm);
        if (traits != null) {
            throw new UsageException(where + op.cliName() + "=" + algorithm + " runs only on a fabric the job names: give"
                    + " --fabric or MPIRUNJ_FABRIC (its traits: " + io.mpirunj.runtime.spi.AlgorithmTrait.labels(traits)
                    + "; see --list-algorithms)");
        }
    }

    /**
     * {@code MPIRUNJ_COLL_RULES} (as {@code --coll-rules}; -x wins over this environment), or null. With
     * {@code --threads} the ranks take the launcher's registry, so it must hold these rules.
     */
    private String rulesFromEnvironment() {
        String v = environment.get(RuntimeConfig.COLL_RULES_ENV);
        for (String x : exports) {
            if (x.startsWith(RuntimeConfig.COLL_RULES_ENV + "=")) {
                v = x.substring(RuntimeConfig.COLL_RULES_ENV.length() + 1);
            }
        }
        return blank(v) ? null : v.trim();
    }

    /** {@code --coll}, else the property or environment variable (as {@code RuntimeConfig.from} reads them), or null. */
    private String forcedCollectives() {
        return coll != null ? coll
                : System.getProperty(CollectiveRegistry.PROP_NAME, System.getenv(CollectiveRegistry.ENV_NAME));
    }

    /** {@code --model}, if given, must parse; {@code --coll-tune} must be a number of rounds. */
    private void checkModel() throws UsageException {
        if (collTune != null && (collTune < 0 || collTune > RuntimeConfig.COLL_TUNE_MAX)) {
            throw new UsageException("--coll-tune " + collTune + " (expected: " + RuntimeConfig.COLL_TUNE_EXPECTED + ")");
        }
        if (model != null) {
            try {
                io.mpirunj.fabric.model.ModelSpec.parse(model.trim());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--model: " + e.getMessage()); // the message quotes the spec
            }
        }
    }

    /**
     * The job's model ({@code --model}, else {@code MPIRUNJ_MODEL} in {@code ranks}, the ranks' settings) of per-pair
     * costs (a pair matrix, or a model file made of one) prices the pairs of its nodes only: with more ranks than
     * nodes, each rank failed with a stack trace at its first collective that planned with it.
     */
    private void checkModelCoversTheRanks(Map<String, String> ranks) throws UsageException {
        String spec = ranks.get(RuntimeConfig.MODEL_ENV);
        if (blank(spec)) {
            return;
        }
        io.mpirunj.fabric.model.CostModel parsed;
        try {
            parsed = io.mpirunj.fabric.model.ModelSpec.parse(spec.trim());
        } catch (IllegalArgumentException e) {
            return; // said where the setting is checked
        }
        if (parsed instanceof io.mpirunj.fabric.model.PairCostModel p && p.nodes() < size) {
            throw new UsageException((model != null ? "--model " : RuntimeConfig.MODEL_ENV + "=") + spec.trim()
                    + ": a cost matrix over " + p.nodes() + " nodes, fewer than the job's " + size + " ranks (-np "
                    + size + ")");
        }
    }

    /**
     * {@code --coll-rules}, {@code --coll-report}, {@code --check-collectives} and {@code --model} as the ranks'
     * settings (checked by {@link #registry()}); without a model, processes on plain TCP get
     * {@link ModelProvider#tcpSpec}.
     */
    private Map<String, String> jobCollSelection(int ranks, List<Host> hosts, Map<String, String> exported) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (collRules != null) {
            settings.put(RuntimeConfig.COLL_RULES_ENV, collRules.toAbsolutePath().normalize().toString());
        }
        if (collReport) {
            settings.put(RuntimeConfig.COLL_REPORT_ENV, "1");
        }
        if (checkCollectives) {
            settings.put(RuntimeConfig.CHECK_COLLECTIVES_ENV, "1");
        }
        if (collTune != null) {
            settings.put(RuntimeConfig.COLL_TUNE_ENV, Integer.toString(collTune));
        }
        if (model != null) {
            settings.put(RuntimeConfig.MODEL_ENV, model.trim());
        } else if (!threads && fabricOptions.fabric == null && exportedFabric(exported) == null
                && !exported.containsKey(RuntimeConfig.MODEL_ENV)
                && blank(environment.get(RuntimeConfig.MODEL_ENV))) {
            boolean oneHost = hosts == null && !srunRank && !SlurmLaunch.insideAllocation(environment);
            // the built-in TCP model, with the cores the ranks share when they outnumber them on one host
            settings.put(RuntimeConfig.MODEL_ENV,
                    ModelProvider.tcpSpec(ranks, oneHost ? Runtime.getRuntime().availableProcessors() : 0));
        }
        return settings;
    }

    /** The {@code MPIRUNJ_FABRIC} of {@code -x} ({@code exported}), else of this environment; null if neither. */
    private String exportedFabric(Map<String, String> exported) {
        String fromX = exported.get(RuntimeConfig.FABRIC_ENV);
        String given = !blank(fromX) ? fromX : environment.get(RuntimeConfig.FABRIC_ENV);
        return blank(given) ? null : given;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** {@code --srun-rank}: this process is a task of an srun step; options that need a launcher are refused. */
    private void checkSrunRank() throws UsageException {
        SlurmStep step = SlurmLaunch.step(environment);
        if (size != null && size != step.size()) {
            throw new UsageException("--srun-rank with -np " + size + " but the Slurm step has " + step.size()
                    + " tasks (leave -np out: srun -n decides)");
        }
        size = step.size();
        String refused = threads ? "--threads" : !jvm.jvmArgs.isEmpty() ? "-J" : !exports.isEmpty() ? "-x"
                : timeout != null ? "--timeout" : outputDir != null ? "--output-filename"
                : tagOutput || timestampOutput ? "--tag-output/--timestamp-output" : null;
        if (refused != null) {
            throw new UsageException("--srun-rank with " + refused + ": srun runs this rank, so use srun's own options "
                    + "(--export, --time, --label, --output) and pass JVM options through MPIRUNJ_JAVA_OPTS");
        }
    }

    /** The compiled program when MainClass is a source file ({@code Pi.java}); deleted when the job ends. */
    private SourceProgram source;

    /** Checks everything that can be checked before a rank starts; compiler errors go to {@code err}. */
    JobSpec validate(PrintWriter err) throws UsageException {
        List<Host> hosts = hosts();
        if (size == null && hosts != null) {
            size = Placement.totalSlots(hosts); // as mpirun: one rank per slot
        }
        if (size == null) {
            String late = programArgs.stream().filter(a -> a.equals("-np") || a.equals("-n") || a.startsWith("--np"))
                    .findFirst().orElse(null);
            throw new UsageException("missing -np N (the number of ranks to start)" + (late == null ? ""
                    : "; the " + late + " after " + mainClass + " goes to the program: options come before the main "
                            + "class"));
        }
        if (threads && hosts != null) {
            throw new UsageException("--threads runs every rank in this JVM: it cannot take --hostfile or --host");
        }
        if (size < 1) {
            throw new UsageException("-np " + size + " (expected: a number of ranks >= 1)");
        }
        int most = threads ? MAX_THREAD_RANKS : MAX_PROCESS_RANKS;
        if (size > most) {
            throw new UsageException("-np " + size + " is more than mpirun-j runs " + (threads ? "as threads" : "as processes")
                    + " (expected: at most " + most + " ranks" + (threads ? ", each holding state for every other" : "")
                    + ")");
        }
        long timeoutMs = timeoutMs();
        Map<String, String> env = exportedEnvironment();
        jobFabric(size, env).forEach(env::put);
        jobCollSelection(size, hosts, env).forEach(env::put);
        if (traceFile != null) {
            Path parent = traceFile.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new UsageException("--trace " + traceFile + ": no such directory " + parent);
            }
            env.put(io.mpirunj.runtime.trace.MessageTrace.ENV, traceFile.toAbsolutePath().toString());
        }
        checkRankSettings(env);
        if (threads && !jvm.jvmArgs.isEmpty()) {
            throw new UsageException("-J/--jvm-arg " + jvm.jvmArgs.get(0) + ": with --threads the ranks run in the "
                    + "launcher's JVM (set its options with MPIRUNJ_JAVA_OPTS)");
        }
        for (String a : jvm.jvmArgs) {
            if (!a.startsWith("-")) {
                throw new UsageException("-J/--jvm-arg " + a + " (expected: a JVM option starting with '-', e.g. -Xmx1g)");
            }
        }
        if (!threads) {
            JvmOptions.check(ProcessJob.javaExecutable(), jvm.jvmArgs);
        }
        if (outputDir != null && Files.exists(outputDir) && !Files.isDirectory(outputDir)) {
            throw new UsageException("--output-filename " + outputDir + " exists and is not a directory");
        }
        JobSpec.OutputOptions output = new JobSpec.OutputOptions(tagOutput, timestampOutput,
                outputDir == null ? null : outputDir.toAbsolutePath().normalize());
        List<String> args = new ArrayList<>(programArgs);
        List<Path> cp;
        String main = mainClass;
        if (jar != null) {
            Path jarPath;
            try {
                jarPath = Path.of(jar).toAbsolutePath().normalize();
            } catch (java.nio.file.InvalidPathException e) {
                throw new UsageException("-jar " + jar + " is not a valid path");
            }
            if (!Files.exists(jarPath)) {
                throw new UsageException("-jar " + jar + " does not exist");
            }
            if (main != null) {
                args.add(0, main); // with -jar the first positional is the program's
            }
            main = UserClasspath.mainClassOfJar(jarPath);
            cp = new ArrayList<>(List.of(jarPath));
            if (!classpath.isEmpty()) {
                cp.addAll(UserClasspath.parse(String.join(File.pathSeparator, classpath)));
            }
        } else {
            if (main == null) {
                throw new UsageException("missing the main class to run (usage: mpirun-j -np N [options] MainClass "
                        + "[args...], or -jar JAR [args...])");
            }
            cp = new ArrayList<>(UserClasspath.parse(userClasspathSpec()));
            if (SourceProgram.isSourceFile(main)) {
                source = SourceProgram.compile(main, cp, err);
                main = source.mainClass();
                cp.add(0, source.classes());
            }
        }
        UserClasspath.checkMainClass(main, cp, MpirunJ.class.getClassLoader());
        if (coll != null) {
            coll = coll.trim();
        }
        return new JobSpec(size, main, args, cp, coll, output, verbose, env, jvm.jvmArgs, timeoutMs, !steadyStateJit);
    }

    /**
     * The ranks' {@code MPIRUNJ_*} settings from this environment and {@code -x} ({@link RankSettings}), checked
     * before any rank starts; {@code env} holds the ranks' settings so far ({@code -x} and the options'). With
     * processes, fabric settings from this environment join {@code env}, so the launcher hosts the emulation's
     * arbiter for {@code MPIRUNJ_FABRIC_PARAMS} as it does for {@code --fabric-params}.
     */
    private void checkRankSettings(Map<String, String> env) throws UsageException {
        Map<String, String> ranks = new LinkedHashMap<>(environment);
        ranks.putAll(env);
        Set<String> fromOptions = new java.util.HashSet<>(env.keySet());
        fromOptions.removeAll(exports.stream().map(x -> x.indexOf('=') < 0 ? x : x.substring(0, x.indexOf('=')))
                .toList());
        if (coll != null) {
            fromOptions.add(CollectiveRegistry.ENV_NAME);
        }
        RankSettings.check(ranks, fromOptions, size, threads, MpirunJ.class.getClassLoader());
        checkForcedCanRun(ranks);
        checkRulesHaveTheirFabric(ranks);
        checkModelCoversTheRanks(ranks);
        if (!threads) {
            for (String v : RankSettings.FABRIC_VARIABLES) {
                if (!blank(environment.get(v)) && !env.containsKey(v)) {
                    env.put(v, environment.get(v));
                }
            }
        }
    }

    /**
     * {@code --fabric} and {@code --placement}, checked against the rank count, as the ranks' settings. Without
     * {@code --fabric}, {@code --placement} and the emulation's options place and time the ranks on the
     * {@code MPIRUNJ_FABRIC} of {@code -x} ({@code exported}) or of the environment (options add to those settings,
     * as {@code --fabric} with an exported {@code MPIRUNJ_PLACEMENT} does).
     */
    private Map<String, String> jobFabric(int size, Map<String, String> exported) throws UsageException {
        Map<String, String> settings = new LinkedHashMap<>();
        String placement = fabricOptions.placement;
        String network = fabricOptions.fabric;
        String networkName = "--fabric";
        boolean emulationOptions = fabricOptions.fabricParams != null || fabricOptions.fabricTimeScale != null
                || !fabricFaults.isEmpty();
        if (network == null && (placement != null || emulationOptions) && exportedFabric(exported) != null) {
            network = exportedFabric(exported);
            networkName = RuntimeConfig.FABRIC_ENV + "=" + network.trim();
        }
        if (network == null) {
            if (placement != null) {
                throw new UsageException("--placement " + placement + " needs --fabric or MPIRUNJ_FABRIC (the network to "
                        + "place the ranks on)");
            }
            if (emulationOptions) {
                throw new UsageException((fabricOptions.fabricParams != null ? "--fabric-params"
                        : fabricOptions.fabricTimeScale != null ? "--fabric-time-scale" : "--fabric-fault")
                        + " needs --fabric or MPIRUNJ_FABRIC (the network to emulate)");
            }
            return settings;
        }
        // as the tools word it (ScenarioOptions): the messages quote the spec, the prefix names the option
        io.mpirunj.fabric.topology.Topology topology;
        try {
            topology = io.mpirunj.fabric.topology.Topology.parse(network.trim());
        } catch (IllegalArgumentException e) {
            throw new UsageException(networkName + ": " + e.getMessage());
        }
        try {
            io.mpirunj.fabric.placement.Placement.parse(placement == null ? "identity" : placement.trim(), topology, size);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--placement" + (placement == null ? " identity (the default)" : "") + ": "
                    + e.getMessage());
        }
        settings.put(RuntimeConfig.FABRIC_ENV, network.trim());
        if (placement != null) {
            settings.put(RuntimeConfig.PLACEMENT_ENV, placement.trim());
        }
        settings.putAll(fabricEmulation(network, size));
        return settings;
    }

    /** {@code --fabric-params}, {@code --fabric-time-scale} and {@code --fabric-fault}, checked, as the ranks' settings. */
    private Map<String, String> fabricEmulation(String network, int size) throws UsageException {
        Map<String, String> settings = new LinkedHashMap<>();
        String fabricParams = fabricOptions.fabricParams;
        Double fabricTimeScale = fabricOptions.fabricTimeScale;
        if (fabricParams == null) {
            if (fabricTimeScale != null || !fabricFaults.isEmpty()) {
                throw new UsageException((fabricTimeScale != null ? "--fabric-time-scale" : "--fabric-fault")
                        + " needs --fabric-params (the emulated fabric's timing)");
            }
            return settings;
        }
        double scale = fabricTimeScale == null ? FabricEmulation.DEFAULT_MICROS_PER_UNIT : fabricTimeScale;
        String faults = String.join(";", fabricFaults);
        try {
            FabricOptions.emulation(network, fabricOptions.placement, fabricParams, fabricTimeScale, fabricFaults, size);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        settings.put(FabricEmulation.PARAMS_ENV, fabricParams.trim());
        settings.put(FabricEmulation.TIME_SCALE_ENV, Double.toString(scale));
        if (!faults.isBlank()) {
            settings.put(FabricEmulation.FAULT_ENV, faults);
        }
        return settings;
    }

    /** {@code --hostfile}, else {@code --host}, else an orchestrator's hostfile; null: this host only. */
    private List<Host> hosts() throws UsageException {
        try {
            if (launchHosts.hostfile != null && launchHosts.hostOption != null) {
                throw new UsageException("--hostfile and --host both name the hosts (give one)");
            }
            if (launchHosts.hostfile != null) {
                return HostList.readHostfile(launchHosts.hostfile);
            }
            if (launchHosts.hostOption != null) {
                return HostList.parseHostOption(launchHosts.hostOption);
            }
            Path handedOver = HostList.orchestratorHostfile(environment);
            return handedOver == null ? null : HostList.readHostfile(handedOver);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** Where the ranks run, checked before anything starts. */
    JobLayout layout(int np) throws UsageException {
        List<Host> hosts = threads ? null : hosts();
        String mapBy = launchHosts.mapBy;
        String launchAgent = launchHosts.launchAgent;
        try {
            Placement.MapBy by = mapBy == null ? Placement.MapBy.SLOT : Placement.MapBy.parse(mapBy);
            if (hosts == null) {
                if (launchAgent != null || launchHosts.rendezvousHost != null || mapBy != null) {
                    String which = launchAgent != null ? "--launch-agent"
                            : launchHosts.rendezvousHost != null ? "--rendezvous-host" : "--map-by";
                    throw new UsageException(which + " needs hosts (--hostfile FILE or --host a,b)");
                }
                return JobLayout.local(np);
            }
            Placement placement = Placement.of(hosts, np, by, oversubscription.oversubscribe);
            LaunchAgent agent = LaunchAgent.parse(launchAgent == null ? LaunchAgent.DEFAULT : launchAgent);
            String rendezvous = launchHosts.rendezvousHost;
            if (rendezvous == null) {
                rendezvous = "127.0.0.1";
                for (Host h : placement.hosts()) {
                    if (!h.isLocal()) {
                        rendezvous = JobLayout.addressRoutingTo(h.name());
                        break;
                    }
                }
            } else if (rendezvous.isBlank()) {
                throw new UsageException("--rendezvous-host is empty (expected: an address the hosts reach this one at)");
            }
            return new JobLayout(placement, agent, rendezvous.strip());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** What {@code -x} takes for a variable's name: the shell's ({@code export}'s) identifiers. */
    private static final java.util.regex.Pattern VARIABLE_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** {@code -x} as a map; VAR alone takes the launcher's value. */
    private Map<String, String> exportedEnvironment() throws UsageException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String x : exports) {
            int eq = x.indexOf('=');
            String name = eq < 0 ? x : x.substring(0, eq);
            if (name.isEmpty() || name.indexOf('\0') >= 0) {
                throw new UsageException("-x " + x + " (expected: VAR or VAR=VALUE)");
            }
            if (!VARIABLE_NAME.matcher(name).matches()) { // as the shell's export: a quoting slip, more likely than not
                throw new UsageException("-x " + x + ": '" + name + "' is not a variable name (expected: letters, digits "
                        + "and _, not starting with a digit)");
            }
            String value = eq < 0 ? environment.get(name) : x.substring(eq + 1);
            if (value == null) {
                throw new UsageException("-x " + name + ": " + name + " is not set here (use -x " + name + "=VALUE)");
            }
            if (threads && !value.equals(environment.get(name))) {
                throw new UsageException("-x " + x + ": with --threads the ranks share the launcher's environment "
                        + "(set " + name + " before running mpirun-j)");
            }
            env.put(name, value);
        }
        return env;
    }

    /** {@code --timeout}, else {@code MPIEXEC_TIMEOUT}, in milliseconds; 0 for none. */
    long timeoutMs() throws UsageException {
        String name = "--timeout";
        String v = timeout;
        if (v == null) {
            name = TIMEOUT_ENV;
            v = environment.get(TIMEOUT_ENV);
            if (v == null || v.isBlank()) {
                return 0;
            }
        }
        double seconds;
        try {
            seconds = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            seconds = Double.NaN;
        }
        if (!(seconds > 0) || seconds > 1e9) {
            throw new UsageException(name + (name.startsWith("-") ? " " : "=") + v
                    + " (expected: a number of seconds > 0, at most 1000000000)");
        }
        return Math.max(1, Math.round(seconds * 1000));
    }

    /** This JVM's classpath with absolute entries: what every rank process needs besides the user's classes. */
    public static String launcherClasspath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                entries.add(Path.of(e).toAbsolutePath().normalize().toString());
            }
        }
        return MpiBindingsJar.addTo(String.join(File.pathSeparator, entries));
    }

    /** {@code -cp} if given, else $CLASSPATH or "." (like java), plus the bundled examples. */
    String userClasspathSpec() {
        if (!classpath.isEmpty()) {
            return String.join(File.pathSeparator, classpath);
        }
        String base = environment.get("CLASSPATH");
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
