package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mpirun-j schedule}: the papers' reference schedules, as JSON, as tables and as pictures. */
class ScheduleCommandTest {

    /** Paper 000's 6×6 example: source (3,2) is rank 0, the destinations ranks 1..7 in SPEC order. */
    static final String OPT_MESH = "--op multicast --algo opt-mesh --fabric mesh:6x6 "
            + "--placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4 --model hold=20,end=55 --json -np 8";

    @Test
    void optMeshOnTheSixBySixMeshIsThePapersScheduleWithoutContention() {
        ToolRun run = ToolRun.schedule(args(OPT_MESH));
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("", run.err());
        String json = run.out().trim();
        assertTrue(json.startsWith("{") && json.endsWith("}"), json);
        assertTrue(json.startsWith("{\"op\":\"multicast\",\"algorithm\":\"opt-mesh\",\"ranks\":8,\"root\":0,"), json);
        assertTrue(json.contains("\"completion\":130,"), json);
        // SPEC.md section 1: (3,2)->(4,4) first, t_hold later (3,2)->(3,4); (4,4) forwards from 55
        assertTrue(json.contains("\"messages\":[{\"src\":0,\"dst\":5,\"start\":0,\"end\":55,\"step\":1,"
                + "\"path\":[20,26,27,28],\"waited\":0},{\"src\":0,\"dst\":3,\"start\":20,\"end\":75,\"step\":2,"), json);
        assertTrue(json.contains(",\"contention\":[],\"units\":[\"whole\"],\"programs\":[["), json);

        Map<String, Object> o = MiniJson.object(json);
        List<String> order = messages(o).stream()
                .map(m -> fmt(m.get("src")) + "->" + fmt(m.get("dst")) + "@" + fmt(m.get("start")) + ".."
                        + fmt(m.get("end")))
                .toList();
        assertEquals(List.of("0->5@0..55", "0->3@20..75", "0->1@40..95", "5->7@55..110", "0->2@60..115",
                "5->6@75..130", "3->4@75..130"), order);
        for (Map<String, Object> m : messages(o)) {
            assertEquals(0.0, m.get("waited"));
        }
        assertEquals(List.of(), o.get("contention"));
    }

    @Test
    void uMeshTakesThreeRoundsOfTEnd() {
        Map<String, Object> o = ToolRun.scheduleJson(OPT_MESH.replace("opt-mesh", "u-mesh") + " --eval rounds");
        assertEquals(165.0, o.get("completion"));
        assertEquals("rounds", o.get("evaluation"));
        assertEquals(7, messages(o).size());
        // and event by event on the fabric, as the papers report says, also 165
        ToolRun event = ToolRun.schedule(args(OPT_MESH.replace("opt-mesh", "u-mesh")));
        assertEquals(165.0, MiniJson.object(event.out()).get("completion"));
    }

    /**
     * Options given with a schedule file: before, --root, --size and --op were overwritten by the file's values without
     * a word. Now one the file contradicts is refused, except --size on a whole-buffer schedule, which resizes it
     * (schedule --from and simulate --schedule share ScenarioOptions.resolveFor).
     */
    @Test
    void optionsAScheduleFileContradictsAreRefusedAndSizeResizesAWholeBufferOne(@TempDir Path dir) throws Exception {
        ToolRun written = ToolRun.schedule(args("--algo binomial -np 4 --size 100 --json"));
        assertEquals(0, written.exitCode(), written::toString);
        Path file = dir.resolve("b.json");
        Files.writeString(file, written.out());
        for (String command : List.of("schedule --from ", "simulate --schedule ")) {
            java.util.function.Function<String, ToolRun> run = rest -> command.startsWith("schedule")
                    ? ToolRun.schedule(args(command.substring(9) + file + rest))
                    : ToolRun.simulate(args(command.substring(9) + file + rest));
            String prefix = "mpirun-j " + command.substring(0, 8) + ": ";
            BadInputTest.assertOneLineUsageError(run.apply(" --root 3"), prefix,
                    "--root 3 differs from the schedule's root 0 in " + file + " (leave --root out)");
            BadInputTest.assertOneLineUsageError(run.apply(" --op multicast"), prefix,
                    "--op multicast differs from the bcast of the schedule in " + file + " (leave --op out)");
            assertEquals(0, run.apply(" --root 0 --op bcast --size 100").exitCode());
        }
        // binomial moves the whole buffer: --size evaluates the same programs at another size, as if built at it
        ToolRun resized = ToolRun.schedule(args("--from " + file + " --size 1000 --json"));
        assertEquals(0, resized.exitCode(), resized::toString);
        assertEquals(ToolRun.schedule(args("--algo binomial -np 4 --size 1000 --json")).out(), resized.out());
        ToolRun simulated = ToolRun.simulate(args("--schedule " + file + " --size 1000 --json"));
        assertEquals(ToolRun.simulate(args("--algo binomial -np 4 --size 1000 --json")).out(), simulated.out());
        // a pipelined chain cuts its buffer into segments: it is a schedule of its size only
        ToolRun segmented = ToolRun.schedule(args("--algo chain-pipelined -np 4 --size 100000 --json"));
        Path chain = dir.resolve("chain.json");
        Files.writeString(chain, segmented.out());
        ToolRun refused = ToolRun.schedule(args("--from " + chain + " --size 10"));
        BadInputTest.assertOneLineUsageError(refused, "mpirun-j schedule: ",
                "--size 10 differs from the schedule's 100000 bytes in " + chain + ", and ");
        assertTrue(refused.err().trim().endsWith("it cannot be resized to 10 bytes (leave --size out)"), refused::toString);
    }

    /**
     * A file's explicit paths must walk the fabric from the sender's node to the receiver's as this run places the
     * ranks: an auditor's star schedule read back with --placement random:7 was simulated along the identity
     * placement's routes (exit 0), and on another fabric it failed with a stack trace.
     */
    @Test
    void pathsThatDoNotFitTheFabricAndPlacementAreRefusedNamingRankAndInstruction(@TempDir Path dir) throws Exception {
        ToolRun written = ToolRun.schedule(args("--algo star --fabric star:4 --json"));
        assertEquals(0, written.exitCode(), written::toString);
        Path file = Files.writeString(dir.resolve("star.json"), written.out());
        assertEquals(0, ToolRun.schedule(args("--from " + file + " --fabric star:4")).exitCode());
        for (String command : List.of("schedule --from ", "simulate --schedule ")) {
            java.util.function.Function<String, ToolRun> run = rest -> command.startsWith("schedule")
                    ? ToolRun.schedule(args(command.substring(9) + file + rest))
                    : ToolRun.simulate(args(command.substring(9) + file + rest));
            String prefix = "mpirun-j " + command.substring(0, 8) + ": ";
            ToolRun moved = run.apply(" --fabric star:4 --placement random:7");
            BadInputTest.assertOneLineUsageError(moved, prefix, file + ": rank 0 #0 (SEND whole -> ");
            assertTrue(moved.err().contains("its path on star:4 with placement random:7: path must start at "),
                    moved::toString);
            ToolRun elsewhere = run.apply(" --fabric mesh:4x6");
            BadInputTest.assertOneLineUsageError(elsewhere, prefix, file + ": rank 0 #0 (SEND whole -> ");
            assertTrue(elsewhere.err().contains("(give the --fabric and --placement the schedule was made for)"),
                    elsewhere::toString);
        }
    }

    /** A wormhole deadlock (star-graph routes, flit-level, large messages) is one line and status 1, not an internal error. */
    @Test
    void aWormholeDeadlockIsOneLine() {
        String options = "--fabric star:5 --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --size 100000 --algo ttcc";
        for (ToolRun run : List.of(ToolRun.schedule(args(options)), ToolRun.simulate(args(options)))) {
            assertEquals(1, run.exitCode(), run::toString);
            assertEquals(1, run.err().lines().count(), run::toString);
            assertTrue(run.err().matches("mpirun-j (schedule|simulate): (--algo ttcc: )?wormhole deadlock on star:5"
                    + "(?s).*"), run::toString);
        }
    }

    /**
     * A file read back keeps its evaluation, and one simulated on a fabric says it was re-simulated on the default
     * model (both changed their numbers without a word: a new user's trial).
     */
    @Test
    void aFileReadBackKeepsItsEvaluationAndSaysWhatItCannotRestore(@TempDir Path dir) throws Exception {
        ToolRun rounds = ToolRun.schedule(args("--algo binomial -np 7 --model hold=10,end=40 --eval rounds --json"));
        assertEquals(120.0, MiniJson.object(rounds.out()).get("completion"));
        Path file = Files.writeString(dir.resolve("rounds.json"), rounds.out());
        ToolRun again = ToolRun.schedule(args("--from " + file + " --json"));
        assertEquals(rounds.out(), again.out());
        assertEquals("", again.err());

        Path steps = Files.writeString(dir.resolve("steps.json"), rounds.out().replace("\"rounds\"", "\"steps\""));
        BadInputTest.assertOneLineUsageError(ToolRun.schedule(args("--from " + steps)), "mpirun-j schedule: ",
                steps + ": \"evaluation\": \"steps\" (expected: event or rounds)");

        Path mesh = Files.writeString(dir.resolve("mesh.json"), ToolRun.schedule(args(OPT_MESH)).out());
        for (ToolRun run : List.of(ToolRun.schedule(args("--from " + mesh + " --json")),
                ToolRun.simulate(args("--schedule " + mesh)))) {
            assertEquals(0, run.exitCode(), run::toString);
            assertTrue(run.err().matches("mpirun-j (schedule|simulate): note: " + java.util.regex.Pattern.quote(mesh
                    + " was simulated on 'mesh:6x6 hold=20,end=55 one-port', which is not a cost model spec")
                    + ".*\\R"), run::toString);
        }
    }

    @Test
    void aJsonScheduleReadBackIsWrittenAgainByteForByteAndBrokenOnesAreRefused(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        ToolRun first = ToolRun.schedule(args("--op multicast --algo chain-pipelined -np 6 --size 1000 --model "
                + "hold=10,end=40 --json"));
        assertEquals(0, first.exitCode(), first::toString);
        java.nio.file.Path file = dir.resolve("s.json");
        java.nio.file.Files.writeString(file, first.out());
        ToolRun again = ToolRun.schedule(args("--from " + file + " --model hold=10,end=40 --op multicast -np 6 --json"));
        assertEquals(0, again.exitCode(), again::toString);
        assertEquals(first.out(), again.out());
        // the file says its ranks, operation and model: nothing else needed (a new user's "missing -np K" before)
        ToolRun alone = ToolRun.schedule(args("--from " + file + " --json"));
        assertEquals(0, alone.exitCode(), alone::toString);
        assertEquals(first.out(), alone.out());
        ToolRun otherRanks = ToolRun.schedule(args("--from " + file + " -np 5"));
        assertEquals(2, otherRanks.exitCode(), otherRanks::toString);
        assertTrue(otherRanks.err().contains("-np 5 differs from the 6 ranks of the schedule in " + file + " (leave -np out)"), otherRanks::toString);
        ToolRun ok = ToolRun.schedule(args("--verify " + file));
        assertEquals(0, ok.exitCode(), ok::toString);
        assertTrue(ok.out().startsWith("ok: multicast chain-pipelined ranks=6"), ok.out());

        // Rank 5 loses its program: the sends to it have no receiver and it never gets the data.
        String broken = first.out();
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(broken);
        ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("programs").get(5)).removeAll();
        java.nio.file.Files.writeString(file, tree.toString());
        ToolRun refused = ToolRun.schedule(args("--verify " + file));
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains("unmatched send: rank 4 #"), refused.err());
        assertTrue(refused.err().contains("missing delivery: rank 5 never receives"), refused.err());
    }

    @Test
    void tableOneOptTreeOfNineNodesCompletesAt135() {
        ToolRun run = ToolRun.schedule(args("--algo opt-tree -np 9 --model hold=20,end=55 --json"));
        assertEquals(0, run.exitCode(), run::toString);
        Map<String, Object> o = MiniJson.object(run.out());
        assertEquals(135.0, o.get("completion"));
        assertEquals("bcast", o.get("op"));
        assertEquals("hold=20,end=55", o.get("model"));
        assertEquals(8, messages(o).size());
        assertFalse(o.containsKey("contention"), "no fabric, no contention list");
        assertTrue(run.out().contains("{\"src\":0,\"dst\":6,\"start\":0,\"end\":55,\"step\":1}"), run.out());
    }

    @Test
    void tableHasOneLinePerMessageThenCompletion() {
        ToolRun run = ToolRun.schedule(args("--algo opt-tree -np 9 --model hold=20,end=55"));
        assertEquals(0, run.exitCode(), run::toString);
        List<String> lines = run.out().lines().toList();
        assertEquals("opt-tree: bcast over 9 ranks, root 0, 1 byte", lines.get(0));
        assertTrue(lines.get(1).startsWith("evaluation: event "), lines.get(1));
        assertEquals("msg  src  dst  start  end  step", lines.get(2));
        assertEquals("  0    0    6      0   55     1", lines.get(3));
        assertEquals(2 + 1 + 8 + 1, lines.size(), run::toString);
        assertEquals("completion: 135", lines.get(lines.size() - 1));
    }

    @Test
    void fabricTableShowsAddressesPathsAndContentionCount() {
        ToolRun run = ToolRun.schedule(args(OPT_MESH.replace(" --json", "")));
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("  0  0 (3/2)  5 (4/4)      0   55     1       0  3/2 4/2 4/3 4/4\n"), run.out());
        assertTrue(run.out().endsWith("completion: 130\ncontention: 0 events\n"), run.out());
    }

    @Test
    void placementObliviousTreeOnAMeshReportsItsContention() {
        String a = "--algo opt-tree -np 8 --fabric mesh:4x4 --model hold=20,end=55 --placement random:2";
        ToolRun table = ToolRun.schedule(args(a));
        assertEquals(0, table.exitCode(), table::toString);
        assertTrue(table.out().endsWith("completion: 130\ncontention: 1 event\n"
                + "  msg 5 blocked by msg 4 on 3/2->3/1 from 75 until 80\n"), table.out());
        Map<String, Object> o = MiniJson.object(ToolRun.schedule(args(a + " --json")).out());
        assertEquals(List.of(Map.of("message", 5.0, "blocker", 4.0, "channel", "3/2->3/1", "from", 75.0,
                "until", 80.0)), o.get("contention"));
        assertEquals(5.0, messages(o).get(5).get("waited"));
    }

    @Test
    void defaultModelIsTheIbmSpModelAtOneByte() {
        Map<String, Object> o = ToolRun.scheduleJson("--algo binomial -np 2 --json");
        assertEquals("hold=20+0.02m,end=55+0.07m", o.get("model"));
        assertEquals(55.07, o.get("completion"));
        assertEquals(1.0, o.get("bytes"));
    }

    @Test
    void flitLevelFabricPlansWithTheNominalModel() {
        ToolRun run = ToolRun.schedule(args("--op multicast --algo opt-mesh -np 8 --size 64 --fabric mesh:6x6 "
                + "--fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4"));
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("flit-level wormhole fabric mesh:6x6 ss=2000,sd=2,cd=2,rs=3500,rd=3 one-port"),
                run.out());
        assertTrue(run.out().contains("planned with hold=2000+2m,end=5500+7m"), run.out());
        assertTrue(run.out().contains("contention: 0 events"), run.out()); // OPT-mesh's theorem
    }

    /** As every command's output file: a directory that does not exist is bad input, and none is made. */
    @Test
    void picturesIntoAMissingDirectoryAreRefusedBeforeAnythingIsBuilt(@TempDir Path dir) {
        Path missing = dir.resolve("pics");
        for (String line : List.of("--algo opt-tree -np 9 --png " + missing.resolve("t.png"),
                "--algo opt-tree -np 9 --svg " + missing.resolve("t.svg"),
                "--op alltoall --algo sem --fabric torus:16x16 --png " + missing.resolve("t.png"))) {
            ToolRun run = ToolRun.schedule(args(line));
            String option = line.contains("--png") ? "--png " : "--svg ";
            assertEquals(Tools.USAGE, run.exitCode(), run::toString);
            assertEquals("mpirun-j schedule: " + option + missing.resolve(option.equals("--png ") ? "t.png" : "t.svg")
                    + ": no such directory " + missing, run.err().trim(), run::toString);
            assertEquals("", run.out(), run::toString);
        }
        assertFalse(Files.exists(missing));
    }

    @Test
    void pngWritesTreeTimingAndFabricPicturesNamedAfterFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pics/opt.png");
        Files.createDirectory(dir.resolve("pics"));
        ToolRun run = ToolRun.schedule(args(OPT_MESH + " --png " + file + " --svg " + dir.resolve("opt")));
        assertEquals(0, run.exitCode(), run::toString);
        MiniJson.object(run.out()); // stdout stays pure JSON: the file names go to stderr
        for (String name : List.of("opt-tree", "opt-timing", "opt-fabric")) {
            Path png = dir.resolve("pics/" + name + ".png");
            assertTrue(Files.size(png) > 10_000, png + " is " + Files.size(png) + " bytes");
            byte[] head = Files.readAllBytes(png);
            assertEquals((byte) 0x89, head[0]);
            assertEquals('P', head[1]);
            assertTrue(run.err().contains("wrote " + png), run.err());
            Path svg = dir.resolve(name + ".svg");
            assertTrue(Files.readString(svg).contains("<svg"), svg.toString());
        }
    }

    @Test
    void withoutMeshFabricThereIsNoFabricPicture(@TempDir Path dir) throws Exception {
        ToolRun run = ToolRun.schedule(args("--algo opt-tree -np 9 --model hold=20,end=55 --png " + dir.resolve("t.png")));
        assertEquals(0, run.exitCode(), run::toString);
        try (var files = Files.list(dir)) {
            assertEquals(List.of("t-timing.png", "t-tree.png"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertTrue(run.out().contains("wrote " + dir.resolve("t-tree.png")), run.out());
    }

    @Test
    void pictureFileNames() {
        assertEquals(Path.of("out/opt-tree.png"), ScheduleCommand.pictureFile(Path.of("out/opt.png"), "-tree", ".png"));
        assertEquals(Path.of("opt-fabric.svg"), ScheduleCommand.pictureFile(Path.of("opt"), "-fabric", ".svg"));
        assertEquals(Path.of("a.b-tree.png"), ScheduleCommand.pictureFile(Path.of("a.b.PNG"), "-tree", ".png"));
    }

    @Test
    void helpIsTheDocumentation() {
        ToolRun run = ToolRun.schedule("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("FILE-tree"), run.out());
        assertTrue(run.out().contains("Examples:"), run.out());
        assertTrue(run.out().lines().allMatch(l -> l.length() < 80), run.out());
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> messages(Map<String, Object> o) {
        return (List<Map<String, Object>>) (List<?>) o.get("messages");
    }

    static String fmt(Object number) {
        double d = (Double) number;
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
