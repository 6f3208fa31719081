package io.mpirunj.benchmarks.osu;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.catalogue.SimulatedSelector;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.model.Numbers;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fits the {@code wake} term of a model with shared CPUs ({@code cpus=C}) to measured bcasts:
 * {@code java -cp ... io.mpirunj.benchmarks.osu.WakeFit NP BASE_SPEC FILE...}, where each FILE is the output of
 * {@code mpirun-j bench osu_bcast -np NP --coll bcast=A+B+... --interleave} (its per-size tables: name and
 * average latency) and {@code BASE_SPEC} the model the ranks ran with, e.g. {@code hold=..,end=..,cpus=2}, or
 * {@code tcp,cpus=C} for the built-in {@link ModelProvider#TCP_SPEC} with C shared cores (builders do not read
 * wake, so the schedules simulated are the ones that ran).
 *
 * <p>For each wake W on a grid (0 to {@value #MAX_WAKE} µs, step {@value #STEP}) it predicts every measured
 * (size, algorithm) as the ranks' mean time in the call on {@code BASE_SPEC,wake=W}
 * ({@link SimulatedSelector#meanTimeInCall}: what OSU's average latency times) plus one offset common to all
 * (OSU's loop around the call: the barrier and the timer, which no algorithm changes; fitted in closed form),
 * and keeps the W with the least squared relative error. It prints the fitted spec and, per row, the
 * measured and predicted time. {@code benchmarks/fit-tcp-wake.sh} measures and fits in one go.
 */
public final class WakeFit {
    static final double MAX_WAKE = 300;
    static final double STEP = 0.5;

    private static final Pattern SIZE = Pattern.compile("^# (\\d+) B: .*");
    private static final Pattern ROW = Pattern.compile("^([a-z][a-z0-9-]*)\\s+([0-9]+(?:\\.[0-9]+)?)\\s+.*");

    private WakeFit() {
    }

    /** One measured average: the algorithm's name, the bcast size and OSU's average latency in µs. */
    record Measured(String algorithm, long bytes, double micros) {
    }

    /** The fit: the wake in µs, the common offset in µs and the sum of squared relative errors. */
    record Fit(double wake, double offset, double error) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: WakeFit NP BASE_SPEC BENCH_OUTPUT...");
            System.exit(2);
        }
        int ranks = Integer.parseInt(args[0]);
        String base = args[1].startsWith("tcp,") ? ModelProvider.TCP_SPEC + args[1].substring(3) : args[1];
        List<Measured> rows = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            rows.addAll(parse(Files.readAllLines(Path.of(args[i]))));
        }
        if (rows.isEmpty()) {
            System.err.println("WakeFit: no measured rows in " + String.join(" ", List.of(args).subList(2, args.length)));
            System.exit(1);
        }
        List<Schedule> schedules = schedules(ranks, base, rows);
        Fit fit = fit(base, rows, schedules);
        CostModel model = ModelSpec.parse(withWake(base, fit.wake()));
        System.out.printf(Locale.ROOT, "# fitted on %d averages: %s (common offset %.1f us, rms relative error %.1f %%)%n",
                rows.size(), model, fit.offset(), 100 * Math.sqrt(fit.error() / rows.size()));
        System.out.printf(Locale.ROOT, "# %9s  %-20s %12s %12s %14s%n", "bytes", "algorithm", "measured us",
                "predicted us", "completion (model)");
        for (int i = 0; i < rows.size(); i++) {
            Measured m = rows.get(i);
            double[] p = predict(schedules.get(i), model);
            System.out.printf(Locale.ROOT, "%11d  %-20s %12.1f %12.1f %14.1f%n", m.bytes(), m.algorithm(), m.micros(),
                    p[0] + fit.offset(), p[1]);
        }
        System.out.println("wake=" + Numbers.format(fit.wake()));
    }

    /** The (size, name, average) rows of bench --interleave tables; auto and unknown names left out. */
    static List<Measured> parse(List<String> lines) {
        List<Measured> out = new ArrayList<>();
        long bytes = -1;
        for (String line : lines) {
            Matcher size = SIZE.matcher(line);
            if (size.matches()) {
                bytes = Long.parseLong(size.group(1));
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (bytes >= 0 && row.matches() && AlgorithmCatalogue.find(CollectiveOp.BCAST, row.group(1)) != null) {
                out.add(new Measured(row.group(1), bytes, Double.parseDouble(row.group(2))));
            }
        }
        return out;
    }

    static Fit fit(int ranks, String base, List<Measured> rows) {
        return fit(base, rows, schedules(ranks, base, rows));
    }

    private static Fit fit(String base, List<Measured> rows, List<Schedule> schedules) {
        Fit best = null;
        for (double w = 0; w <= MAX_WAKE; w += STEP) {
            Fit f = evaluate(base, w, rows, schedules);
            if (best == null || f.error() < best.error()) {
                best = f;
            }
        }
        return best;
    }

    /** The error of one wake, with the offset that minimises the squared relative error (closed form). */
    static Fit evaluate(int ranks, String base, double wake, List<Measured> rows) {
        return evaluate(base, wake, rows, schedules(ranks, base, rows));
    }

    private static Fit evaluate(String base, double wake, List<Measured> rows, List<Schedule> schedules) {
        CostModel model = ModelSpec.parse(withWake(base, wake));
        double[] predicted = new double[rows.size()];
        double num = 0;
        double den = 0;
        for (int i = 0; i < rows.size(); i++) {
            Measured m = rows.get(i);
            predicted[i] = predict(schedules.get(i), model)[0];
            num += (m.micros() - predicted[i]) / (m.micros() * m.micros());
            den += 1 / (m.micros() * m.micros());
        }
        double offset = num / den;
        double error = 0;
        for (int i = 0; i < rows.size(); i++) {
            double d = (rows.get(i).micros() - predicted[i] - offset) / rows.get(i).micros();
            error += d * d;
        }
        return new Fit(wake, offset, error);
    }

    /**
     * The schedule each row's algorithm runs, built once on {@code base}: builders do not read wake, so the
     * grid re-simulates these instead of building them again per wake.
     */
    private static List<Schedule> schedules(int ranks, String base, List<Measured> rows) {
        CostModel model = ModelSpec.parse(base);
        List<Schedule> out = new ArrayList<>(rows.size());
        for (Measured m : rows) {
            out.add(AlgorithmCatalogue.lookup(CollectiveOp.BCAST, m.algorithm())
                    .build(AlgorithmCatalogue.Shape.of(ranks, 0, m.bytes(), model)));
        }
        return out;
    }

    /** {mean time in the call, completion} of {@code schedule} on {@code model}. */
    private static double[] predict(Schedule schedule, CostModel model) {
        var simulation = Simulator.event(schedule, model);
        return new double[] {SimulatedSelector.meanTimeInCall(simulation, model), simulation.completion()};
    }

    static String withWake(String base, double wake) {
        return base + ",wake=" + String.format(Locale.ROOT, "%s", wake == Math.rint(wake) ? Long.toString((long) wake)
                : Double.toString(wake));
    }
}
