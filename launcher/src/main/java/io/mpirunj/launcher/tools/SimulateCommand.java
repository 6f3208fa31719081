package io.mpirunj.launcher.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.runtime.spi.AlgorithmTrait;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.fabric.model.Numbers;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j simulate}: the completion time of one, several or all bcast/multicast
 * algorithms on one model or fabric, fastest first, as a table or a JSON array. An algorithm that
 * cannot run on the scenario (a builder's refusal) is listed as not run, never silently dropped.
 */
@Command(name = "simulate",
        usageHelpWidth = 79,
        sortOptions = false,
        description = {
            "Simulates broadcast/multicast algorithms on a cost model or a routed fabric",
            "and prints their completion times (model time units), fastest first, with",
            "the number of contention events on a fabric. The header says what was",
            "simulated and how the times were evaluated.",
            "",
        },
        footerHeading = "%nOutput:%n",
        footer = {
            "  Table (default): place, algorithm, completion, messages sent[, contention",
            "  events]; algorithms that cannot run on the scenario are listed after it",
            "  as 'not run: NAME: reason'. --json: an array, fastest first, of",
            "    {\"op\",\"algorithm\",\"ranks\",\"root\",\"bytes\",\"model\",\"evaluation\",",
            "     \"completion\",\"messageCount\"[,\"contentionEvents\"]}",
            "  then {\"algorithm\",\"error\"} for each algorithm that could not run.",
            "",
            "Examples:",
            "  mpirun-j simulate --op bcast --algo all -np 7 --model hold=10,end=40",
            "  mpirun-j simulate --schedule my-bcast.json --model hold=10,end=40",
            "  mpirun-j simulate -np 7 --model hold=10,end=40 --eval rounds",
            "  mpirun-j simulate --op multicast --algo fibonacci,binary-split -np 8 \\",
            "      --model logp:L=6,o=2,g=4 --json",
            "  mpirun-j simulate --op multicast -np 8 --fabric mesh:6x6 \\",
            "      --placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4 --model hold=20,end=55",
            "  mpirun-j simulate --op multicast -np 32 --size 4096 --fabric mesh:16x16 \\",
            "      --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --placement random:1",
            "  mpirun-j simulate --op bcast --algo ecef,fef,ttcc --hetero paper \\",
            "      --error-sigma 0:0.5:0.05 --reps 1000 -np 100 [--seed S] [--json]",
            "    (paper 003: per sigma, mean completion and delay ratio; --json gives",
            "    {\"results\":[{\"algorithm\",\"sigma\",\"meanCompletion\",\"delayRatio\"},...]})",
            "",
            "Exit status: 0 done (also when some algorithm could not run on the scenario,",
            "unless it was the only one asked for); 2 bad input (one line on stderr, e.g.",
            "an unknown algorithm, a bad model spec, --root outside the group, an",
            "algorithm that needs --fabric asked for without one).",
        })
public final class SimulateCommand implements Callable<Integer> {
    /** Built at the first --json, not when picocli instantiates every command at start-up. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--algo", paramLabel = "NAME|all", defaultValue = "all",
            completionCandidates = AlgorithmNames.class,
            description = "The algorithms: a name, a comma-separated list, or all (the default). Names: "
                    + "${COMPLETION-CANDIDATES} (opt-mesh and u-mesh need a mesh --fabric, the star ones "
                    + "a star:N fabric with N! ranks; descriptions: --list-algorithms).")
    String algorithms;

    @Option(names = "--list-algorithms", description = "List the algorithms with a line on each and exit.")
    boolean listAlgorithms;

    @Option(names = "--schedule", paramLabel = "FILE.json",
            description = "Simulate the schedule in FILE (from mpirun-j schedule --json, written by hand or by "
                    + "another tool) instead of built algorithms. It is verified first. "
                    + ScenarioOptions.FROM_FILE_HELP)
    Path scheduleFile;

    @Mixin
    ScenarioOptions options;

    @Mixin
    HeteroOptions hetero;

    @Option(names = "--json", description = "Print a JSON array instead of a table.")
    boolean json;

    @Mixin
    Tools.Help help;

    /** One algorithm's result, or why it could not run. */
    record Row(String algorithm, Simulation simulation, String error) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (listAlgorithms) {
            out.println(algorithmList());
            out.flush();
            return 0;
        }
        if (scheduleFile != null) {
            return simulateFile(out);
        }
        if (hetero.active()) {
            return hetero.run(spec, options, algorithms, json);
        }
        Scenario scenario;
        List<String> names;
        try {
            hetero.checkInactive(spec);
            scenario = options.resolve();
            if (scenario.op() == io.mpirunj.collectives.schedule.Collective.ALLTOALL) {
                throw new BadInput("--op alltoall: simulate runs bcast and multicast; for the torus all-to-alls use "
                        + "mpirun-j schedule --op alltoall --fabric torus:NxN");
            }
            names = names(scenario);
        } catch (BadInput e) {
            return Tools.usage(spec, e);
        }
        List<Row> rows = new ArrayList<>();
        List<Row> failed = new ArrayList<>();
        for (String name : names) {
            try {
                rows.add(new Row(name, scenario.simulate(scenario.build(name)), null));
            } catch (IllegalArgumentException e) {
                failed.add(new Row(name, null, BadInput.oneLine(e.getMessage())));
            } catch (io.mpirunj.fabric.wormhole.WormholeDeadlockException e) {
                if (names.size() == 1) { // not bad usage: the outcome of this algorithm on this fabric
                    return Tools.deadlock(spec, "--algo " + name + ": " + e.getMessage());
                }
                failed.add(new Row(name, null, BadInput.oneLine(e.getMessage())));
            }
        }
        if (names.size() == 1 && !failed.isEmpty()) {
            return Tools.usage(spec, new BadInput("--algo " + names.get(0) + ": " + failed.get(0).error()));
        }
        rows.sort(Comparator.comparingDouble(r -> r.simulation().completion())); // stable: table order on ties
        if (json) {
            out.println(json(scenario, rows, failed));
        } else {
            printTable(out, scenario, rows, failed, isAll());
        }
        out.flush();
        return 0;
    }

    /** {@code --schedule FILE}: one row, the file's schedule; a broken schedule is one line naming rank and instruction. */
    private int simulateFile(PrintWriter out) {
        Schedule schedule;
        Scenario scenario;
        try {
            hetero.checkInactive(spec);
            if (!"all".equals(algorithms)) {
                throw new BadInput("give --schedule FILE.json or --algo, not both");
            }
            ScenarioOptions.FromFile file = options.resolveFor(ScheduleCommand.readFile(scheduleFile), scheduleFile);
            schedule = file.schedule();
            scenario = file.scenario();
            file.printNote(spec, spec.commandLine().getErr());
            List<String> problems = Verifier.verify(schedule);
            if (!problems.isEmpty()) {
                throw new BadInput(scheduleFile + ": invalid schedule: " + Verifier.inOneLine(problems));
            }
        } catch (BadInput e) {
            return Tools.usage(spec, e);
        }
        List<Row> rows;
        try {
            rows = List.of(new Row(schedule.algorithm(), scenario.simulate(schedule), null));
        } catch (io.mpirunj.fabric.wormhole.WormholeDeadlockException e) {
            return Tools.deadlock(spec, e.getMessage());
        }
        if (json) {
            out.println(json(scenario, rows, List.of()));
        } else {
            printTable(out, scenario, rows, List.of(), false);
        }
        out.flush();
        return 0;
    }

    /** {@code --algo} as checked names, in table order for {@code all}. */
    private List<String> names(Scenario scenario) throws BadInput {
        if (isAll()) {
            return scenario.algorithms();
        }
        Set<String> names = new LinkedHashSet<>();
        for (String n : algorithms.split(",", -1)) {
            names.add(scenario.checkAlgorithm(n));
        }
        return List.copyOf(names);
    }

    private boolean isAll() {
        return algorithms.trim().equalsIgnoreCase("all");
    }

    static void printTable(PrintWriter out, Scenario scenario, List<Row> rows, List<Row> failed, boolean all) {
        boolean routed = scenario.routed();
        out.println(scenario.describe());
        out.println("evaluation: " + scenario.evaluationText());
        List<String[]> table = new ArrayList<>();
        String completion = "completion (" + scenario.evaluationName() + ")";
        table.add(routed ? new String[] {"#", "algorithm", completion, "messages", "contention"}
                : new String[] {"#", "algorithm", completion, "messages"});
        int rank = 1;
        for (Row r : rows) {
            Simulation s = r.simulation();
            String[] row = {Integer.toString(rank++), r.algorithm(), Scenario.time(s.completion()),
                Integer.toString(s.messages().size())};
            if (routed) {
                row = new String[] {row[0], row[1], row[2], row[3], Integer.toString(s.contentions().size())};
            }
            table.add(row);
        }
        // left-align the algorithm column: pad the names to the widest
        int nameWidth = table.stream().mapToInt(r -> r[1].length()).max().orElse(0);
        for (String[] row : table) {
            row[1] = row[1] + " ".repeat(nameWidth - row[1].length());
        }
        ScheduleCommand.printColumns(out, table, -1);
        for (Row f : failed) {
            out.println("not run: " + f.algorithm() + ": " + f.error());
        }
        if (all) {
            List<String> runnable = scenario.algorithms();
            List<String> star = new ArrayList<>();
            List<String> mesh = new ArrayList<>();
            for (String n : Scenario.placedNames()) {
                if (!runnable.contains(n)) {
                    (AlgorithmCatalogue.lookup(CollectiveOp.MULTICAST, n).traits().contains(AlgorithmTrait.STAR_FABRIC)
                            ? star : mesh).add(n);
                }
            }
            if (!star.isEmpty()) {
                out.println("(" + String.join(", ", star) + " need a star:N fabric with N! ranks)");
            }
            if (!mesh.isEmpty()) {
                out.println("(" + String.join(", ", mesh) + " need a mesh --fabric)");
            }
        }
    }

    static String json(Scenario scenario, List<Row> rows, List<Row> failed) {
        ArrayNode all = Json.MAPPER.createArrayNode();
        for (Row r : rows) {
            Simulation s = r.simulation();
            ObjectNode o = all.addObject()
                    .put("op", s.schedule().collective().label())
                    .put("algorithm", r.algorithm())
                    .put("ranks", s.schedule().ranks())
                    .put("root", s.schedule().root())
                    .put("bytes", s.schedule().messageBytes())
                    .put("model", s.model())
                    .put("evaluation", scenario.evaluationName())
                    .put("completion", new BigDecimal(Numbers.format(s.completion()))) // as the table prints it
                    .put("messageCount", s.messages().size());
            if (scenario.routed()) {
                o.put("contentionEvents", s.contentions().size());
            }
        }
        for (Row f : failed) {
            all.addObject().put("algorithm", f.algorithm()).put("error", f.error());
        }
        try {
            return Json.MAPPER.writeValueAsString(all);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the results as JSON", e); // a tree of plain values
        }
    }

    /** "name  description" lines: the catalogue's multicast schedules, trees first, then the placement-aware ones. */
    static String algorithmList() {
        List<String[]> entries = new ArrayList<>();
        for (String n : Scenario.treeNames()) {
            entries.add(new String[] {n, AlgorithmCatalogue.lookup(CollectiveOp.MULTICAST, n).description()});
        }
        for (String n : Scenario.placedNames()) {
            AlgorithmCatalogue.Entry e = AlgorithmCatalogue.lookup(CollectiveOp.MULTICAST, n);
            entries.add(new String[] {n, e.description() + " [needs --fabric: " + e.requirement()
                    + (e.traits().contains(AlgorithmTrait.STAR_FABRIC) ? ", N! ranks" : "") + "]"});
        }
        int width = entries.stream().mapToInt(e -> e[0].length()).max().orElse(0);
        List<String> lines = new ArrayList<>();
        for (String[] e : entries) {
            lines.add(String.format("%-" + width + "s  %s", e[0], e[1]));
        }
        return String.join(System.lineSeparator(), lines);
    }

    /** Every algorithm name, for {@code ${COMPLETION-CANDIDATES}} in the help. */
    static final class AlgorithmNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            List<String> names = new ArrayList<>(Scenario.treeNames());
            names.addAll(Scenario.placedNames());
            return names.iterator();
        }
    }
}
