package io.mpirunj.launcher.bench;

import static io.mpirunj.launcher.LaunchOptions.add;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuOptions;
import io.mpirunj.benchmarks.sweep.ExternalRuntime;
import io.mpirunj.benchmarks.sweep.ProgressBar;
import io.mpirunj.benchmarks.sweep.Sweep;
import io.mpirunj.benchmarks.sweep.SweepJob;
import io.mpirunj.benchmarks.sweep.SweepPoint;
import io.mpirunj.io.IoErrors;
import io.mpirunj.launcher.LaunchOptions;
import io.mpirunj.launcher.MpirunJ;
import io.mpirunj.launcher.tools.LineForwarder;
import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j bench}: the OSU-style benchmarks ({@code osu_latency}, {@code osu_bw},
 * {@code osu_bcast}, {@code osu_multicast}, {@code osu_alltoall}, {@code osu_barrier},
 * {@code osu_allreduce}) run as ordinary mpirun-j jobs, and sweeps over algorithms and rank counts.
 *
 * <p>A run ({@code bench osu_bcast -np 8 -m 1:4096 -f}) is exactly
 * {@code mpirun-j -np 8 -cp BENCHMARKS io.mpirunj.benchmarks.osu.OsuBcast -m 1:4096 -f}: the job goes
 * through the normal run command ({@link MpirunJ#commandLine()}) with the benchmarks' classes as the
 * user classpath, and prints the OSU table. A sweep ({@code --coll bcast=all}, or
 * {@code bcast=a+b}) runs one job per algorithm x rank count ({@code -np 2,4,8}) with a progress
 * bar on a terminal, then prints a side-by-side table and writes a CSV and PNG charts to
 * {@code --out}; Open MPI with the OSU binaries ({@code OSU_HOME}) and MPJ Express
 * ({@code MPJ_HOME}) join the sweep when installed, else a {@code skipped: ...} line says why.
 *
 * <p>Options may come before or after NAME (the run command stops parsing at its first positional
 * argument, so what follows NAME is parsed here a second time).
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        abbreviateSynopsis = true, // its ~40 options are listed below; spelt out, the synopsis broke a word
        description = {
            "Runs an OSU-style benchmark as an mpirun-j job, printing OSU's layout; or sweeps it over "
                    + "algorithms (--coll OP=all) and rank counts (-np 2,4,8) into a CSV and PNG charts; or "
                    + "(--interleave) times the algorithms in one job, interleaved, and compares them.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mpirun-j bench --list",
            "  mpirun-j bench osu_bcast -np 8 --threads -m 1:65536 -f",
            "  mpirun-j bench osu_latency -np 2",
            "  mpirun-j bench osu_bcast -np 2,4,8 --threads --coll bcast=all -m 1:4096 \\",
            "      --out results/",
            "  mpirun-j bench osu_bcast -np 4,8 --coll bcast=all -m 1:1048576 \\",
            "      --write-rules rules.json",
            "  mpirun-j bench osu_bcast -np 8 --coll bcast=auto+all --interleave \\",
            "      -m 1024:1024",
            "  mpirun-j bench osu_bcast -np 8 --coll bcast=auto+chain+chain --interleave \\",
            "      -m 64:64",
            "  mpirun-j bench osu_alltoall -np 16 --threads --fabric torus:4x4 \\",
            "      --fabric-params hold=20,end=55 --coll alltoall=sem+pairwise --interleave",
            "  mpirun-j bench osu_alltoall -np 16 --hostfile hosts \\",
            "      --launch-agent 'docker exec' --rendezvous-host 172.18.0.1 \\",
            "      --coll alltoall=all --out results/",
            "",
            "With -f the OSU table gains Min, Max, Iterations (OSU's columns), then P50",
            "and P99 (percentiles of every timed call on every rank) and Last-Rank Done:",
            "per iteration, the time from the root's call (unrooted collectives: the last",
            "rank's call) until the last rank returned, averaged over the iterations (so",
            "it can exceed P99: it spans ranks, a call does not).",
            "",
            "With --interleave, one job per rank count times every algorithm of --coll",
            "OP=a+b (or OP=all, OP=auto+all), each on its own view of the world: per size,",
            "rounds of one block of calls per algorithm in a shuffled order, each call timed",
            "as in OSU's loop, -i calls per algorithm. It prints each one's average and its",
            "ratio to the fastest: the geometric mean over rounds of the two blocks' ratio in",
            "one round (a drift of the machine cancels), with a 90 %% bootstrap interval; for",
            "auto also held out (the fastest chosen on even rounds, the ratio taken on odd",
            "ones) and against the fastest schedule (names sending the same messages pooled).",
            "A name twice (chain+chain) times two copies: how far apart they come out is what",
            "the machine can resolve.",
        })
public final class BenchCommand implements Callable<Integer> {
    static final int EXIT_USAGE = 2;

    @Spec
    CommandSpec commandSpec;

    @Option(names = "--list", description = "List the benchmarks and exit.")
    boolean list;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "COUNTS", split = ",", hideParamSyntax = true,
            description = "Ranks: N, or several rank counts N,N,... that run one after another (and are one sweep). "
            + "Required, also with --hostfile or --host.")
    List<Integer> nps = new ArrayList<>();

    @Option(names = "--threads", description = "Run the ranks as threads of this JVM instead of as processes.")
    boolean threads;

    @Option(names = {"-m", "--message-size"}, paramLabel = "[MIN:]MAX", description = "Message sizes in bytes "
            + "(powers of two from MIN to MAX).")
    String messageSize;

    @Option(names = {"-i", "--iterations"}, paramLabel = "ITER", description = "Timed iterations per size "
            + "(default: OSU's).")
    String iterations;

    @Option(names = {"-x", "--warmup"}, paramLabel = "ITER", description = "Untimed iterations before each size "
            + "(default: OSU's).")
    String warmup;

    @Option(names = {"-f", "--full"}, description = "Also print Min, Max, Iterations, P50, P99, Last-Rank Done.")
    boolean full;

    @Option(names = "--jit-warmup", paramLabel = "N", description = "Untimed calls over all sizes (taken in turn) "
            + "before the first, repeated while a rank's JIT compiles, then for collectives rehearsed after an idle "
            + "wait, not with --interleave (default: 2000 for collectives, 20000 for osu_latency; 0 for none).")
    String jitWarmup;

    @Option(names = {"-W", "--window-size"}, paramLabel = "SIZE", description = "osu_bw: messages per window "
            + "(default 64).")
    String window;

    @Option(names = "--buffer", paramLabel = "array|direct", description = "osu_latency, osu_bw, osu_bcast, "
            + "osu_alltoall, osu_allreduce: messages in an array (array, the default) or a direct ByteBuffer (direct,"
            + " native memory as OSU's C programs use).")
    String buffer;

    @Option(names = {"-g", "--group-size"}, paramLabel = "K", description = "osu_multicast: group size (default np-1).")
    String groupSize;

    @Option(names = "--coll", paramLabel = "OP=ALGO[,OP=ALGO...]", description = "Force algorithms; OP=all or "
            + "OP=ALGO+ALGO sweeps them.")
    String coll;

    @Option(names = "--out", paramLabel = "DIR", description = "Where a sweep writes its CSV and charts "
            + "(default: bench-results; created if missing).")
    Path out = Path.of("bench-results");

    @Mixin
    LaunchOptions.Hosts hosts;

    @Mixin
    LaunchOptions.Oversubscribe oversubscription;

    @Mixin
    LaunchOptions.JvmArgs jvm;

    @Mixin
    LaunchOptions.Network fabricOptions;

    @Option(names = "--model", paramLabel = "SPEC|FILE", description = "The cost model auto plans with (as for "
            + "the run command).")
    String model;

    @Option(names = "--write-rules", paramLabel = "FILE", description = "With a sweep (--coll OP=all): write a "
            + "rules file for --coll-rules picking the fastest algorithm per rank count and message size (an "
            + "existing FILE keeps its rules for other operations).")
    Path writeRules;

    @Option(names = "--interleave", description = "With --coll OP=a+b or OP=all: time the algorithms in one job, "
            + "interleaved in blocks, and print each one's average and ratio to the fastest (no CSV or charts).")
    boolean interleave;

    @Option(names = "--block", paramLabel = "N", description = "With --interleave: calls per block (default: the "
            + "iterations / 100, at least 1).")
    String block;

    @Option(names = "--no-compare", description = "In a sweep, do not run Open MPI (OSU_HOME) or MPJ Express "
            + "(MPJ_HOME) beside mpirun-j.")
    boolean noCompare;

    @Parameters(index = "0..*", arity = "0..*", paramLabel = "NAME", description = "The benchmark: "
            + "osu_latency, osu_bw, osu_bcast, osu_multicast, osu_alltoall, osu_barrier or osu_allreduce.")
    List<String> words = new ArrayList<>();

    /** The environment read for OSU_HOME and MPJ_HOME (tests substitute it). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter outWriter = commandSpec.commandLine().getOut();
        if (words.size() > 1) {
            // options after NAME: the run command's parser stopped at NAME, so parse the rest here
            BenchCommand again = copy();
            CommandLine cl = new CommandLine(again);
            cl.setOut(outWriter);
            cl.setErr(err);
            try {
                cl.parseArgs(words.subList(1, words.size()).toArray(String[]::new));
            } catch (CommandLine.ParameterException e) {
                return usage(err, String.valueOf(e.getMessage()).split("\\R", 2)[0]);
            }
            if (cl.isUsageHelpRequested()) {
                cl.usage(outWriter);
                return 0;
            }
            if (!again.words.isEmpty()) { // one NAME only; a second word is not an option
                return usage(err, "unexpected argument after " + words.get(0) + ": '" + again.words.get(0)
                        + "' (one benchmark NAME per run)");
            }
            again.words = new ArrayList<>(words.subList(0, 1));
            again.commandSpec = commandSpec;
            return again.call();
        }
        if (list) {
            outWriter.print(listing());
            outWriter.flush();
            return 0;
        }
        if (words.isEmpty()) {
            return usage(err, "missing the benchmark NAME (one of: " + OsuBenchmark.commands()
                    + "; see mpirun-j bench --list)");
        }
        try {
            return run(outWriter, err);
        } catch (BadUsage e) {
            return usage(err, e.getMessage());
        }
    }

    private BenchCommand copy() {
        BenchCommand c = new BenchCommand();
        c.list = list;
        c.nps = new ArrayList<>(nps);
        c.threads = threads;
        c.messageSize = messageSize;
        c.iterations = iterations;
        c.warmup = warmup;
        c.full = full;
        c.jitWarmup = jitWarmup;
        c.window = window;
        c.buffer = buffer;
        c.groupSize = groupSize;
        c.coll = coll;
        c.out = out;
        c.noCompare = noCompare;
        c.interleave = interleave;
        c.block = block;
        c.writeRules = writeRules;
        c.hosts = hosts; // this command is done with once the copy is parsed, so the copy may take its mixins
        c.oversubscription = oversubscription;
        c.jvm = jvm;
        c.fabricOptions = fabricOptions;
        c.model = model;
        c.environment = environment;
        c.words = new ArrayList<>();
        return c;
    }

    private static int usage(PrintWriter err, String message) {
        err.println("mpirun-j bench: " + message);
        err.flush();
        return EXIT_USAGE;
    }

    /** A usage error found before anything ran. */
    static final class BadUsage extends Exception {
        private static final long serialVersionUID = 1L;

        BadUsage(String message) {
            super(message);
        }
    }

    /** The {@code --list} table. */
    static String listing() {
        StringBuilder sb = new StringBuilder();
        for (OsuBenchmark b : OsuBenchmark.values()) {
            String ranks = b.pointToPoint() ? "np 2" : "np >= 2";
            String what = switch (b.kind()) {
                case LATENCY -> "ping-pong latency between ranks 0 and 1";
                case BANDWIDTH -> "bandwidth from rank 0 to 1 (windows of non-blocking sends)";
                case COLLECTIVE -> b.op() + " latency over message sizes";
                case NO_SIZE -> b.op() + " latency";
            };
            String sweep = b.op() == null ? "" : " [--coll " + b.op() + "=all]";
            sb.append(String.format("%-15s %-8s %s%s%n", b.command(), ranks, what, sweep));
        }
        return sb.toString();
    }

    /** The options the benchmark program gets. */
    List<String> programArgs() {
        List<String> a = new ArrayList<>();
        add(a, "-m", messageSize);
        add(a, "-i", iterations);
        add(a, "-x", warmup);
        if (full) {
            a.add("-f");
        }
        add(a, "--jit-warmup", jitWarmup);
        add(a, "-W", window);
        add(a, "--buffer", buffer);
        add(a, "-g", groupSize);
        return a;
    }

    /** The run command's options for where and how the ranks run (hosts, agent, model, JVM options). */
    List<String> launcherOptions() {
        List<String> a = LaunchOptions.arguments(hosts, oversubscription, jvm);
        add(a, "--model", model);
        a.addAll(fabricOptions.arguments());
        return a;
    }

    private int run(PrintWriter outWriter, PrintWriter err) throws BadUsage {
        if (words.size() != 1) {
            throw new BadUsage("expected one benchmark NAME, got " + words);
        }
        OsuBenchmark b;
        try {
            b = OsuBenchmark.byCommand(words.get(0));
        } catch (IllegalArgumentException e) {
            throw new BadUsage(e.getMessage());
        }
        List<String> args = programArgs();
        if (!interleave) {
            checkProgramArgs(b, args);
        }
        if (nps.isEmpty()) {
            throw new BadUsage("missing -np N (the number of ranks; several as -np 2,4,8)");
        }
        for (int np : nps) {
            if (b.pointToPoint() ? np != 2 : np < 2) {
                throw new BadUsage("-np " + np + ": " + b.command() + " needs " + (b.pointToPoint()
                        ? "exactly 2 ranks" : "at least 2 ranks"));
            }
            checkGroupFits(b, args, np);
        }
        Plan plan = plan(b);
        String cp = benchmarksClasspath();
        if (block != null && !interleave) {
            throw new BadUsage("--block " + block + " needs --interleave");
        }
        if (interleave) {
            if (plan.algorithms == null) {
                throw new BadUsage("--interleave needs the algorithms to compare (--coll " + (b.op() == null ? "OP"
                        : b.op()) + "=a+b, =all or =auto+all)");
            }
            if (writeRules != null) {
                throw new BadUsage("--write-rules needs a sweep of one job per algorithm (drop --interleave)");
            }
            if (full) {
                throw new BadUsage("-f/--full: --interleave prints its own table (averages and ratios), not OSU's "
                        + "columns (drop -f)");
            }
            args.add("--compare");
            args.add(String.join(",", plan.algorithms));
            add(args, "--block", block);
            checkProgramArgs(b, args);
            return runEach(b, new Plan(null, plan.fixedColl), args, cp, outWriter, err);
        }
        if (writeRules != null && plan.algorithms == null) {
            throw new BadUsage("--write-rules " + writeRules + " needs a sweep (--coll " + (b.op() == null ? "OP"
                    : b.op()) + "=all or " + (b.op() == null ? "OP" : b.op()) + "=a+b)");
        }
        Path rulesDir = writeRules == null ? null : writeRules.toAbsolutePath().getParent();
        if (rulesDir != null && !java.nio.file.Files.isDirectory(rulesDir)) { // checked now, as below
            throw new BadUsage("--write-rules " + writeRules + ": no such directory " + rulesDir);
        }
        if (writeRules != null && java.nio.file.Files.exists(writeRules)) {
            try { // checked now, so a bad file does not waste the sweep
                CollRules.readFile(java.nio.file.Files.readString(writeRules), writeRules.toString());
            } catch (java.io.IOException | IllegalArgumentException e) {
                throw new BadUsage("--write-rules " + writeRules + " exists and is not a rules file to add to: "
                        + e.getMessage());
            }
        }
        if (plan.algorithms == null) {
            return runEach(b, plan, args, cp, outWriter, err);
        }
        return sweep(b, plan, args, cp, outWriter, err);
    }

    /** osu_multicast's -g against each rank count, before anything starts (each job's rank 0 aborted it). */
    private static void checkGroupFits(OsuBenchmark b, List<String> args, int np) throws BadUsage {
        if (b != OsuBenchmark.MULTICAST) {
            return;
        }
        Integer group;
        try {
            group = OsuOptions.parse(b, args.toArray(String[]::new)).groupSize();
        } catch (OsuOptions.UsageException e) {
            return; // said by checkProgramArgs
        }
        if (group != null && group > np - 1) {
            throw new BadUsage("-np " + np + ": osu_multicast -g " + group + " (expected: a group size from 1 to np-1 = "
                    + (np - 1) + ")");
        }
    }

    /** The program's own check of its options ({@link OsuOptions#parse}), before anything starts. */
    private static void checkProgramArgs(OsuBenchmark b, List<String> args) throws BadUsage {
        try {
            OsuOptions.parse(b, args.toArray(String[]::new));
        } catch (OsuOptions.UsageException e) {
            throw new BadUsage(e.getMessage());
        }
    }

    /** One job per rank count, each printing its own output. */
    private int runEach(OsuBenchmark b, Plan plan, List<String> args, String cp, PrintWriter outWriter,
            PrintWriter err) {
        for (int np : nps) {
            List<String> a = new InJvmJobRunner(cp, null, launcherOptions()).arguments(new SweepJob(np, threads,
                    plan.fixedColl, b.mainClass(), args));
            CommandLine run = MpirunJ.commandLine();
            run.setOut(outWriter);
            run.setErr(err);
            int code = run.execute(a.toArray(String[]::new));
            if (code != 0) {
                return code;
            }
        }
        return 0;
    }

    /** What {@code --coll} asks for: the algorithms to sweep (null: a plain run) and the fixed rest. */
    record Plan(List<String> algorithms, String fixedColl) {
    }

    Plan plan(OsuBenchmark b) throws BadUsage {
        if (coll == null) {
            return new Plan(null, null);
        }
        if (coll.replace(",", "").isBlank()) { // as the run command's --coll: from --coll "$UNSET", a mistake
            throw new BadUsage("--coll '" + coll + "' names no algorithm (expected: op=algorithm, op=all or op=a+b; "
                    + "without --coll the defaults run)");
        }
        CollectiveRegistry registry = CollectiveRegistry.of(null, null, BenchCommand.class.getClassLoader());
        List<String> fixed = new ArrayList<>();
        List<String> sweep = null;
        for (String part : coll.split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                throw new BadUsage("--coll " + coll + ": bad part '" + p + "' (expected: op=algorithm, op=all or "
                        + "op=a+b)");
            }
            String op = p.substring(0, eq).trim();
            String algo = p.substring(eq + 1).trim();
            CollectiveOp cop;
            try {
                cop = CollectiveOp.fromCliName(op);
            } catch (IllegalArgumentException e) {
                throw new BadUsage("--coll: " + e.getMessage());
            }
            if (algo.equals("all") || algo.contains("+")) {
                if (!op.equals(b.op())) {
                    throw new BadUsage("--coll " + p + ": " + b.command() + (b.op() == null
                            ? " is point-to-point and has no algorithms to sweep"
                            : " measures " + b.op() + " (expected: " + b.op() + "=all)"));
                }
                sweep = new ArrayList<>();
                for (String a : algo.split("\\+")) { // all, a+b, or both (auto+all)
                    sweep.addAll(a.trim().equals("all") ? sweepable(cop) : List.of(a));
                }
            } else {
                fixed.add(op + "=" + algo);
            }
        }
        if (sweep != null && fixed.stream().anyMatch(f -> f.startsWith(b.op() + "="))) {
            throw new BadUsage("--coll " + coll + ": " + b.op() + " is both swept and fixed (expected: one of them)");
        }
        List<String> named = new ArrayList<>(fixed);
        if (sweep != null) {
            sweep.forEach(a -> named.add(b.op() + "=" + a.trim()));
        }
        boolean onFabric = fabricOptions.fabricGiven()
                || !(environment.getOrDefault(io.mpirunj.runtime.RuntimeConfig.FABRIC_ENV, "").isBlank());
        for (String f : named) { // without one, the jobs have no fabric (sweepable leaves these algorithms out of all)
            int eq = f.indexOf('=');
            if (!onFabric && io.mpirunj.collectives.catalogue.AlgorithmCatalogue.fabricOnly(CollectiveOp.fromCliName(
                    f.substring(0, eq)), f.substring(eq + 1)) != null) {
                throw new BadUsage("--coll " + coll + ": " + f + " runs only on a fabric the job names: give --fabric "
                        + "(and --placement, --fabric-params), as to the run command");
            }
        }
        try {
            registry.withForced(String.join(",", fixed)); // checks the fixed choices
            if (sweep != null) {
                for (String a : sweep) {
                    if (!a.trim().equals(CollRules.AUTO)) { // auto sweeps beside the algorithms it picks from
                        registry.lookup(CollectiveOp.fromCliName(b.op()), a.trim());
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            throw new BadUsage("--coll: " + e.getMessage());
        }
        String fixedColl = fixed.isEmpty() ? null : String.join(",", fixed);
        return new Plan(sweep == null ? null : sweep.stream().map(String::trim).toList(), fixedColl);
    }

    private int sweep(OsuBenchmark b, Plan plan, List<String> args, String cp, PrintWriter outWriter, PrintWriter err) {
        Sweep sweep = new Sweep(b, plan.algorithms(), nps, args, threads);
        List<SweepPoint> points;
        try (PrintStream messages = new PrintStream(new LineForwarder(err), true, StandardCharsets.UTF_8)) {
            points = sweep.run(new InJvmJobRunner(cp, plan.fixedColl(), launcherOptions()),
                    noCompare ? List.of() : ExternalRuntime.all(environment), ProgressBar.onTerminal(), messages);
        } catch (Exception e) {
            err.println("mpirun-j bench: the sweep failed: " + e.getMessage());
            err.flush();
            return 1;
        }
        outWriter.print(Sweep.table(b, points));
        try {
            Path csv = out.resolve(b.command() + ".csv");
            Sweep.writeCsv(csv, b, points);
            outWriter.println("# wrote " + csv);
            for (Path png : Sweep.writeCharts(out, b, points)) {
                outWriter.println("# wrote " + png);
            }
        } catch (java.io.IOException e) {
            err.println("mpirun-j bench: cannot write the results to " + out + ": " + IoErrors.reason(e));
            err.flush();
            return 1;
        }
        if (writeRules != null) {
            try {
                String existing = java.nio.file.Files.exists(writeRules) ? java.nio.file.Files.readString(writeRules)
                        : null;
                java.nio.file.Files.writeString(writeRules, RulesFromSweep.file(b, nps, threads, args, plan.algorithms(),
                        points, existing, writeRules.toString()));
                outWriter.println("# wrote " + writeRules + " (use it with mpirun-j --coll-rules " + writeRules + ")");
            } catch (java.io.IOException e) {
                err.println("mpirun-j bench: cannot write the rules to " + writeRules + ": " + IoErrors.reason(e));
                err.flush();
                return 1;
            } catch (IllegalArgumentException e) {
                err.println("mpirun-j bench: cannot write the rules to " + writeRules + ": " + e.getMessage());
                err.flush();
                return 1;
            }
        }
        outWriter.flush();
        return 0;
    }

    /**
     * {@code OP=all}: the catalogue's live algorithms for {@code op} that run without a fabric (named ones run on
     * {@code --fabric}) and without an argument ({@code file} needs {@code file:FILE.json}).
     */
    static List<String> sweepable(CollectiveOp op) {
        return io.mpirunj.collectives.catalogue.AlgorithmCatalogue.of(op).stream()
                .filter(e -> e.isLive() && !io.mpirunj.runtime.spi.AlgorithmTrait.needsFabric(e.traits())
                        && !e.name().equals(io.mpirunj.collectives.file.FileSchedules.NAME))
                .map(io.mpirunj.collectives.catalogue.AlgorithmCatalogue.Entry::name).toList();
    }

    /** Where the benchmark classes are (the mpirunj-benchmarks jar, or its classes directory in a build). */
    static String benchmarksClasspath() {
        try {
            return Path.of(OsuBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot locate the mpirunj-benchmarks classes", e);
        }
    }
}
