package io.mpirunj.launcher.tools;

import io.mpirunj.benchmarks.render.MeshFabricViews;
import io.mpirunj.benchmarks.render.Picture;
import io.mpirunj.benchmarks.render.SchedulePictures;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.ScheduleJson;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.SimulationJson;
import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.io.IoErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpirun-j schedule}: builds one bcast/multicast schedule, evaluates it and prints every
 * message (a table, or JSON with {@code --json}: {@link SimulationJson}); {@code --png}/{@code --svg}
 * draw it. Bad input: one line on stderr, exit 2.
 */
@Command(name = "schedule",
        sortOptions = false,
        description = {
            "Builds one broadcast/multicast schedule, evaluates it on a cost model or a",
            "routed fabric and prints every message: source, destination, start and",
            "delivery time (model time units) and step. With --fabric each message also",
            "shows its path and how long it waited, and channel contention is listed.",
            "With --op alltoall it builds a torus all-to-all (--fabric torus:NxN) and",
            "prints its steps: messages, largest message, hops.",
            "",
        },
        footerHeading = "%nOutput:%n",
        footer = {
            "  Table (default): one line per message, then the completion time and the",
            "  number of contention events. --json: one object",
            "    {\"op\",\"algorithm\",\"ranks\",\"root\",\"bytes\",\"model\",\"evaluation\",",
            "     \"completion\",\"messages\":[{\"src\",\"dst\",\"start\",\"end\",\"step\"",
            "       [,\"dropped\"][,\"path\":[node ids],\"waited\"]}...][,\"contention\":[...]],",
            "     \"units\",\"programs\":[[instructions of rank 0], ...]}",
            "  which --from FILE and --verify FILE read back (format: ScheduleJson);",
            "  --from FILE --json writes the same bytes again. Every schedule is",
            "  verified first; an invalid one is listed problem by problem (exit 1).",
            "  On a star graph also \"steps\" and \"nodes\" (node id -> label, e.g. \"4321\").",
            "  Messages are in the order their sends started; path, waited and",
            "  contention appear with --fabric and event evaluation. Ranks are group",
            "  indices 0..K-1; on a fabric rank i runs on the i-th --placement node.",
            "",
            "Pictures: --png FILE and --svg FILE write up to three pictures named after",
            "  FILE (a .png/.svg extension dropped): FILE-tree (the delivery tree),",
            "  FILE-timing (the timing diagram) and, on a 1D/2D mesh or torus fabric,",
            "  FILE-fabric (every route on the mesh, contention marked). E.g.",
            "  --png out/opt.png writes out/opt-tree.png, out/opt-timing.png and",
            "  out/opt-fabric.png; the names written are listed (on stderr with --json).",
            "",
            "Examples:",
            "  mpirun-j schedule --algo opt-tree -np 9 --model hold=20,end=55",
            "  mpirun-j schedule --algo binomial -np 7 --model hold=10,end=40 \\",
            "      --eval rounds --json",
            "  mpirun-j schedule --op multicast --algo fibonacci -np 8 \\",
            "      --model logp:L=6,o=2,g=4",
            "  mpirun-j schedule --op multicast --algo opt-mesh -np 8 --fabric mesh:6x6 \\",
            "      --placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4 --model hold=20,end=55 \\",
            "      --json --png opt-mesh.png",
            "  mpirun-j schedule --op multicast --algo opt-tree -np 32 --size 4096 \\",
            "      --fabric mesh:16x16 --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 \\",
            "      --placement random:1 --svg flit.svg",
            "",
            "  mpirun-j schedule --algo star --fabric star:4 --root dcba --json",
            "",
            "Algorithms: mpirun-j simulate --list-algorithms (opt-mesh and u-mesh need",
            "a mesh --fabric; star, star-match and akers-star a star:N fabric with",
            "N! ranks, the default there).",
            "",
            "All-to-all on a torus (--op alltoall --fabric torus:NxN; -np is N*N): --algo",
            "sem, sem-cell4, diagonal or direct. Prints the combined messages per step,",
            "or with --json {\"op\",\"algorithm\",\"ranks\",\"bytes\",\"steps\",",
            "\"transmitted\",\"rearranged\",\"messages\":[{\"src\",\"dst\",\"step\",",
            "\"blocks\":[[origin,destination],...],\"path\":[node ids]}...]} (node id =",
            "rank = row*N + column); --png/--svg FILE write FILE-stepK per step. E.g.",
            "  mpirun-j schedule --op alltoall --algo sem --fabric torus:16x16 --json",
            "",
            "Exit status: 0 done; 1 a picture could not be written; 2 bad input (one",
            "line on stderr, nothing computed).",
        })
public final class ScheduleCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--algo", paramLabel = "NAME",
            description = "The algorithm, e.g. opt-tree, binomial, fibonacci, opt-mesh (the list: "
                    + "mpirun-j simulate --list-algorithms).")
    String algorithm;

    @Option(names = "--from", paramLabel = "FILE.json",
            description = "Read the schedule (e.g. a --json output, or one written by hand) instead of building one. "
                    + ScenarioOptions.FROM_FILE_HELP)
    Path from;

    @Option(names = "--verify", paramLabel = "FILE.json",
            description = "Only check the schedule in FILE: print ok, or every problem naming its rank and "
                    + "instruction (exit 1).")
    Path verify;

    @Mixin
    ScenarioOptions options;

    @Option(names = "--json", description = "Print the schedule as one JSON object instead of a table.")
    boolean json;

    @Option(names = "--png", paramLabel = "FILE", description = "Write the pictures as PNG: FILE-tree.png, "
            + "FILE-timing.png[, FILE-fabric.png] (see Pictures below), into FILE's directory, which must exist.")
    Path png;

    @Option(names = "--svg", paramLabel = "FILE", description = "The same pictures as SVG (FILE's directory must "
            + "exist).")
    Path svg;

    @Mixin
    Tools.Help help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Scenario scenario;
        Schedule schedule;
        try {
            if (verify != null) {
                return verify(read(verify), out, err);
            }
            if ((algorithm == null) == (from == null)) {
                throw new BadInput("give one of --algo NAME and --from FILE.json (or --verify FILE.json)");
            }
            checkPictureFile("--png", png);
            checkPictureFile("--svg", svg);
            if (from != null) {
                ScenarioOptions.FromFile file = options.resolveFor(readFile(from), from);
                schedule = file.schedule();
                scenario = file.scenario();
                file.printNote(spec, err);
                if (scenario.op() == Collective.ALLTOALL) {
                    return TorusAlltoallSchedule.fromFile(spec, scenario, schedule, json, png, svg);
                }
            } else {
                scenario = options.resolve();
                if (scenario.op() == Collective.ALLTOALL) {
                    return TorusAlltoallSchedule.run(spec, scenario, algorithm, json, png, svg);
                }
                schedule = build(scenario, scenario.checkAlgorithm(algorithm));
            }
        } catch (BadInput e) {
            return Tools.usage(spec, e);
        }
        List<String> problems = Verifier.verify(schedule);
        if (!problems.isEmpty()) {
            return report(schedule, problems, err);
        }
        Simulation sim;
        try {
            sim = scenario.simulate(schedule);
        } catch (io.mpirunj.fabric.wormhole.WormholeDeadlockException e) {
            return Tools.deadlock(spec, e.getMessage());
        }
        if (json) {
            // On a star graph the node ids are permutation ranks: list their labels and the step count.
            out.println(SimulationJson.writeWithPrograms(sim,
                    scenario.topology() instanceof StarGraph ? scenario.topology() : null));
        } else {
            printTable(out, scenario, sim);
        }
        out.flush();
        PrintWriter log = json ? err : out; // stdout stays pure JSON
        try {
            Map<String, Picture> pictures = png != null || svg != null ? pictures(scenario, sim) : Map.of();
            writePictures(log, pictures, png, ".png");
            writePictures(log, pictures, svg, ".svg");
        } catch (IOException e) {
            err.println(Tools.prefix(spec.qualifiedName()) + "cannot write the pictures: " + IoErrors.reason(e));
            err.flush();
            return Tools.FAILED;
        }
        log.flush();
        return 0;
    }

    /** A schedule file: its schedule, and the model and evaluation it was simulated with if it names them (else null). */
    record ScheduleFile(Schedule schedule, String model, String evaluation) {
    }

    /** A schedule from a JSON file; unreadable or malformed files are bad input. */
    static Schedule read(Path file) throws BadInput {
        return readFile(file).schedule();
    }

    /** {@link #read}, with the model the file names. */
    static ScheduleFile readFile(Path file) throws BadInput {
        try {
            ScheduleJson.Document d = ScheduleJson.readDocument(Files.readString(file));
            return new ScheduleFile(d.schedule(), d.model(), d.evaluation());
        } catch (IOException e) {
            throw new BadInput("cannot read " + file + ": " + IoErrors.reason(e, file));
        } catch (IllegalArgumentException e) {
            throw new BadInput(file + ": " + BadInput.oneLine(e.getMessage()));
        }
    }

    private int verify(Schedule schedule, PrintWriter out, PrintWriter err) {
        List<String> problems = Verifier.verify(schedule);
        if (!problems.isEmpty()) {
            return report(schedule, problems, err);
        }
        out.println("ok: " + schedule + " (" + schedule.instructionCount() + " instructions)");
        out.flush();
        return 0;
    }

    private int report(Schedule schedule, List<String> problems, PrintWriter err) {
        err.println(Tools.prefix(spec.qualifiedName()) + "invalid schedule " + schedule + ":");
        for (String p : problems) {
            err.println("  " + p);
        }
        err.flush();
        return Tools.FAILED;
    }

    /** A builder's refusal (e.g. a model it cannot plan with) is bad input too. */
    static Schedule build(Scenario scenario, String name) throws BadInput {
        try {
            return scenario.build(name);
        } catch (IllegalArgumentException e) {
            throw new BadInput("--algo " + name + ": " + e.getMessage());
        }
    }

    private static void checkPictureFile(String option, Path file) throws BadInput {
        if (file == null) {
            return;
        }
        if (file.getFileName() == null || Files.isDirectory(file)) {
            throw new BadInput(option + " " + file + " (expected: a file name; the pictures are named after it)");
        }
        Tools.checkDirectoryOf(option, file);
    }

    /** The pictures of {@code sim}, by file-name suffix. */
    static Map<String, Picture> pictures(Scenario scenario, Simulation sim) {
        Map<String, Picture> pictures = new LinkedHashMap<>();
        IntFunction<String> label = scenario.onFabric() ? scenario::address : null;
        pictures.put("-tree", SchedulePictures.tree(sim, label));
        pictures.put("-timing", SchedulePictures.timing(sim,
                sim.evaluation() == Evaluation.ROUNDS ? null : scenario.timingModel()));
        if (scenario.topology() instanceof Mesh mesh && mesh.dimensions() <= 2) {
            String title = sim.schedule().algorithm() + " on " + scenario.fabric() + ", source "
                    + MeshFabricViews.coord(mesh, scenario.nodeOf()[sim.schedule().root()]);
            pictures.put("-fabric", SchedulePictures.fabric(MeshFabricViews.of(title, sim, mesh, scenario.nodeOf())));
        }
        return pictures;
    }

    /** FILE with its extension dropped, plus suffix and extension: out/opt.png -> out/opt-tree.png. */
    static Path pictureFile(Path file, String suffix, String extension) {
        String name = file.getFileName().toString();
        if (name.toLowerCase(Locale.ROOT).endsWith(extension)) {
            name = name.substring(0, name.length() - extension.length());
        }
        return file.resolveSibling(name + suffix + extension);
    }

    private static void writePictures(PrintWriter log, Map<String, Picture> pictures, Path file, String extension)
            throws IOException {
        if (file == null) {
            return;
        }
        for (Map.Entry<String, Picture> e : pictures.entrySet()) { // into a directory checkPictureFile found
            Path target = pictureFile(file, e.getKey(), extension);
            if (extension.equals(".png")) {
                e.getValue().writePng(target);
            } else {
                e.getValue().writeSvg(target);
            }
            log.println("wrote " + target);
        }
    }

    /** The readable form: header, one line per message, completion, contention. */
    static void printTable(PrintWriter out, Scenario scenario, Simulation sim) {
        Schedule s = sim.schedule();
        boolean routed = sim.routed();
        out.println(s.algorithm() + ": " + scenario.describe());
        out.println("evaluation: " + scenario.evaluationText());
        if (!s.note().isEmpty()) {
            out.println("note: " + s.note());
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(routed ? new String[] {"msg", "src", "dst", "start", "end", "step", "waited", "path"}
                : new String[] {"msg", "src", "dst", "start", "end", "step"});
        List<Message> messages = sim.messages();
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            String src = Integer.toString(m.src());
            String dst = m.dst() + (m.dropped() ? " (dropped)" : "");
            if (scenario.onFabric()) {
                src += " (" + scenario.address(m.src()) + ")";
                dst = m.dst() + " (" + scenario.address(m.dst()) + ")" + (m.dropped() ? " dropped" : "");
            }
            String[] row = {Integer.toString(i), src, dst, Scenario.time(m.start()), Scenario.time(m.end()),
                Integer.toString(m.step())};
            if (routed) {
                StringBuilder path = new StringBuilder();
                for (int node : m.path()) {
                    path.append(path.length() == 0 ? "" : " ").append(scenario.topology().label(node));
                }
                row = new String[] {row[0], row[1], row[2], row[3], row[4], row[5], Scenario.time(m.waited()),
                    path.toString()};
            }
            rows.add(row);
        }
        printColumns(out, rows, routed ? 7 : -1);
        out.println("completion: " + Scenario.time(sim.completion()));
        if (routed) {
            List<Contention> contentions = sim.contentions();
            out.println("contention: " + contentions.size() + " event" + (contentions.size() == 1 ? "" : "s"));
            for (Contention c : contentions) {
                out.println("  msg " + c.message() + " blocked by msg " + c.blocker() + " on " + c.channel()
                        + " from " + Scenario.time(c.from()) + " until " + Scenario.time(c.until()));
            }
        }
    }

    /** Right-aligned columns, except column {@code leftFrom} onwards (left-aligned, e.g. a path). */
    static void printColumns(PrintWriter out, List<String[]> rows, int leftFrom) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                boolean left = leftFrom >= 0 && c >= leftFrom;
                String cell = row[c];
                line.append(c == 0 ? "" : "  ");
                if (left) {
                    line.append(cell).append(c + 1 < columns ? " ".repeat(width[c] - cell.length()) : "");
                } else {
                    line.append(" ".repeat(width[c] - cell.length())).append(cell);
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
