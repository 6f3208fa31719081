package io.mpirunj.launcher.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mpirunj.benchmarks.sweep.Progress;
import io.mpirunj.benchmarks.sweep.ProgressBar;
import io.mpirunj.collectives.experiment.PredictionErrorExperiment;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.fabric.model.HeteroSpec;
import io.mpirunj.fabric.model.Numbers;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code simulate --hetero}: paper 003's prediction-error experiment ({@link PredictionErrorExperiment})
 * on a heterogeneous network, as a picocli mixin of {@link SimulateCommand}. Prints, per σ, each
 * algorithm's mean completion and delay ratio, or {@code --json}
 * {@code {"results":[{"algorithm","sigma","meanCompletion","delayRatio"},...]}}.
 */
final class HeteroOptions {

    /** The heterogeneous algorithms, what {@code --algo all} means with {@code --hetero}. */
    static final List<String> ALL = List.of("ecef", "fef", "ttcc");
    /** Paper 003's message: 1 MB. */
    static final long PAPER_BYTES = 1_000_000;

    @Option(names = "--hetero", paramLabel = "NET",
            description = {"Run paper 003's prediction-error experiment on a heterogeneous network, one of:",
                "paper (4 clusters; latency 10 µs-1 ms; bandwidth 10-200 MB/s inside, 10-50 KB/s between clusters; "
                        + "a new network per repetition),",
                "clusters:C[,KEY=A-B]... with KEY intra-lat, intra-bw, inter-lat or inter-bw (µs, MB/s; the rest "
                        + "as paper),",
                "file:PATH (a fixed pair matrix, mpirunj-pairs/1 JSON).",
                "Trees are built on the prediction M1 and simulated on the real M0. --algo all means ecef, fef and ttcc; "
                        + "--size defaults to 1000000 (1 MB); times are µs."})
    String hetero;

    @Option(names = "--error-sigma", paramLabel = "S", defaultValue = "0:0.5:0.05",
            description = "With --hetero: σ of the relative prediction error, FROM:TO:STEP, a list or one number. "
                    + "Default: ${DEFAULT-VALUE}.")
    String sigmas;

    @Option(names = "--error-mean", paramLabel = "MU", defaultValue = "0",
            description = "With --hetero: μ of the relative prediction error. Default: ${DEFAULT-VALUE}.")
    double errorMean;

    @Option(names = "--reps", paramLabel = "N", defaultValue = "1000",
            description = "With --hetero: repetitions per σ (paper: 1000). Default: ${DEFAULT-VALUE}.")
    int reps;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "With --hetero: the random seed (same seed, same numbers). Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--alpha", paramLabel = "F", defaultValue = "0.01",
            description = "With --hetero: TTCC's α (the time a receiver takes to choose between two copies) as a share "
                    + "of the real network's mean pair cost. Default: ${DEFAULT-VALUE}.")
    double alphaFraction;

    boolean active() {
        return hetero != null;
    }

    /** Rejects experiment options given without {@code --hetero}. */
    void checkInactive(CommandSpec spec) throws BadInput {
        for (String o : new String[] {"--error-sigma", "--error-mean", "--reps", "--seed", "--alpha"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new BadInput(o + " needs --hetero NET (e.g. --hetero paper)");
            }
        }
    }

    /** Runs the experiment and prints it; returns the exit status. */
    int run(CommandSpec spec, ScenarioOptions scenario, String algorithms, boolean json) {
        PrintWriter out = spec.commandLine().getOut();
        PredictionErrorExperiment.Config config;
        try {
            config = config(spec, scenario, algorithms);
        } catch (BadInput e) {
            return Tools.usage(spec, e);
        }
        Progress bar = ProgressBar.onTerminal();
        bar.start(config.reps());
        List<PredictionErrorExperiment.Result> results;
        try {
            results = PredictionErrorExperiment.run(config, done -> bar.step("repetition " + done + "/" + config.reps()));
        } catch (IllegalArgumentException e) { // a builder refusing the scenario
            return Tools.usage(spec, new BadInput(e.getMessage()));
        }
        bar.done();
        if (json) {
            try {
                out.println(new ObjectMapper().writeValueAsString(Map.of("results", results)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot write the results as JSON", e);
            }
        } else {
            printTable(out, config, results);
        }
        out.flush();
        return 0;
    }

    private PredictionErrorExperiment.Config config(CommandSpec spec, ScenarioOptions s, String algorithms)
            throws BadInput {
        for (String o : new String[] {"--model", "--fabric", "--fabric-params", "--placement", "--ports", "--eval"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new BadInput(o + " does not apply with --hetero (the network is the --hetero matrix, evaluated "
                        + "event by event)");
            }
        }
        if (!s.op.trim().equalsIgnoreCase(Collective.BCAST.label())) {
            throw new BadInput("--op " + s.op + " with --hetero (expected: bcast)");
        }
        HeteroSpec network;
        double[] sigmaValues;
        try {
            network = HeteroSpec.parse(hetero);
            sigmaValues = PredictionErrorExperiment.sigmas(sigmas);
        } catch (IllegalArgumentException e) {
            throw new BadInput("--hetero / --error-sigma: " + e.getMessage());
        }
        Integer nodes = s.np != null ? s.np : network.fixed() ? Integer.valueOf(network.fixedNodes()) : null;
        if (nodes == null) {
            throw new BadInput("missing -np K (the number of nodes of the generated network)");
        }
        long bytes = spec.commandLine().getParseResult().hasMatchedOption("--size") ? s.size : PAPER_BYTES;
        int root;
        try {
            root = Integer.parseInt(s.root.trim());
        } catch (NumberFormatException e) {
            throw new BadInput("--root " + s.root + " with --hetero (expected: a node number 0.." + (nodes - 1) + ")");
        }
        // in the options' own names (the experiment's checks name its fields: alphaFraction=-1.0, messageBytes=-5)
        if (!Double.isFinite(alphaFraction) || alphaFraction < 0) {
            throw new BadInput("--alpha " + alphaFraction + " (expected: a share of the mean pair cost, >= 0)");
        }
        if (!Double.isFinite(errorMean)) {
            throw new BadInput("--error-mean " + errorMean + " (expected: a finite number)");
        }
        if (reps < 1) {
            throw new BadInput("--reps " + reps + " (expected: >= 1)");
        }
        if (nodes < 2) {
            throw new BadInput("-np " + nodes + " (expected: at least 2 nodes)");
        }
        if (root < 0 || root >= nodes) {
            throw new BadInput("--root " + root + " (expected: a node number 0.." + (nodes - 1) + ")");
        }
        if (bytes < 0 || bytes > ScenarioOptions.MAX_SIZE) {
            throw new BadInput("--size " + bytes + " (expected: a number of bytes from 0 to " + ScenarioOptions.MAX_SIZE
                    + ")");
        }
        try {
            return new PredictionErrorExperiment.Config(network, names(algorithms), sigmaValues, reps, nodes, root,
                    bytes, errorMean, alphaFraction, seed);
        } catch (IllegalArgumentException e) {
            throw new BadInput(e.getMessage());
        }
    }

    private static List<String> names(String algorithms) {
        if (algorithms.trim().equalsIgnoreCase("all")) {
            return ALL;
        }
        Set<String> names = new LinkedHashSet<>();
        for (String n : algorithms.split(",", -1)) {
            names.add(n.trim().toLowerCase(Locale.ROOT));
        }
        return List.copyOf(names);
    }

    static void printTable(PrintWriter out, PredictionErrorExperiment.Config c, List<PredictionErrorExperiment.Result> rs) {
        out.println("prediction-error experiment (paper 003): bcast, " + c.nodes() + " nodes, root " + c.root() + ", "
                + c.messageBytes() + " bytes, network " + c.network() + ", " + c.reps() + " repetitions, seed " + c.seed());
        out.println("trees built on M1 = M0 x |1 + N(" + Numbers.format(c.errorMean()) + ", sigma)| per link, simulated "
                + "event by event on M0; alpha = " + Numbers.format(c.alphaFraction()) + " x mean pair cost of M0");
        out.println("mean completion in µs; delay = (P(sigma) - P(0)) / P(0) of the algorithm itself");
        List<String> algorithms = c.algorithms();
        List<String[]> table = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("sigma"));
        for (String a : algorithms) {
            head.add(a);
            head.add("delay");
        }
        table.add(head.toArray(new String[0]));
        double[] sigmas = c.sigmas();
        for (int s = 0; s < sigmas.length; s++) {
            List<String> row = new ArrayList<>(List.of(Numbers.format(sigmas[s])));
            for (int a = 0; a < algorithms.size(); a++) {
                PredictionErrorExperiment.Result r = rs.get(a * sigmas.length + s);
                row.add(String.format(Locale.ROOT, "%.0f", r.meanCompletion()));
                row.add(String.format(Locale.ROOT, "%+.1f%%", 100 * r.delayRatio()));
            }
            table.add(row.toArray(new String[0]));
        }
        ScheduleCommand.printColumns(out, table, -1);
    }
}
