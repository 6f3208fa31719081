package io.mpirunj.launcher.tools;

import io.mpirunj.benchmarks.render.FabricView;
import io.mpirunj.benchmarks.render.FabricView.Coord;
import io.mpirunj.benchmarks.render.FabricView.Node;
import io.mpirunj.benchmarks.render.FabricView.Role;
import io.mpirunj.benchmarks.render.FabricView.Route;
import io.mpirunj.benchmarks.render.MeshFabricViews;
import io.mpirunj.benchmarks.render.Picture;
import io.mpirunj.benchmarks.render.SchedulePictures;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.AlltoallJson;
import io.mpirunj.collectives.torus.AlltoallAudit;
import io.mpirunj.collectives.torus.TorusAlltoalls;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.io.IoErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mpirun-j schedule --op alltoall}: builds a torus all-to-all ({@link TorusAlltoalls}),
 * audits it and prints its combined messages per step (or {@link AlltoallJson}); the pictures
 * draw each step's messages on the torus. Schedule rank = torus node id.
 */
final class TorusAlltoallSchedule {

    private TorusAlltoallSchedule() {
    }

    static int run(CommandSpec spec, Scenario scenario, String algorithm, boolean json, Path png, Path svg) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Mesh torus;
        Schedule schedule;
        try {
            torus = checkTorus(scenario);
            String name = algorithm == null ? "" : algorithm.trim();
            if (!TorusAlltoalls.names().contains(name)) {
                throw new BadInput("--algo " + algorithm + ": unknown torus all-to-all (expected one of: "
                        + String.join(", ", TorusAlltoalls.names()) + ")");
            }
            int n = torus.extent(0);
            if (name.equals("direct") && n > 32) {
                throw new BadInput("--algo direct on " + n + "x" + n + ": " + ((long) n * n * (n * n - 1))
                        + " messages is too many to print (expected: N <= 32)");
            }
            schedule = TorusAlltoalls.build(name, n, scenario.bytes());
        } catch (BadInput e) {
            return Tools.usage(spec, e);
        } catch (IllegalArgumentException e) {
            return Tools.usage(spec, new BadInput("--algo " + algorithm + ": " + e.getMessage()));
        }
        return show(spec, scenario, schedule, torus, json, png, svg);
    }

    /**
     * {@code schedule --from FILE.json} of an all-to-all: the file's schedule, shown as one built here is (its JSON
     * the same bytes as the file's when the file was written so).
     */
    static int fromFile(CommandSpec spec, Scenario scenario, Schedule schedule, boolean json, Path png, Path svg) {
        Mesh torus;
        try {
            torus = checkTorus(scenario);
        } catch (BadInput e) {
            return Tools.usage(spec, e);
        }
        return show(spec, scenario, schedule, torus, json, png, svg);
    }

    private static int show(CommandSpec spec, Scenario scenario, Schedule schedule, Mesh torus, boolean json, Path png,
            Path svg) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AlltoallAudit audit = AlltoallAudit.of(schedule);
        if (!audit.ok()) {
            err.println(Tools.prefix(spec.qualifiedName()) + "the " + schedule.algorithm()
                    + " schedule is invalid: " + audit.errors().get(0));
            err.flush();
            return Tools.FAILED;
        }
        AlltoallJson.Counts counts = new AlltoallJson.Counts(audit.startUps(), audit.transmitted(), audit.rearranged());
        if (json) {
            out.println(AlltoallJson.write(schedule, counts, torus::route));
            if (schedule.ranks() > AlltoallJson.MAX_RANKS_WITH_PROGRAMS) {
                err.println(Tools.prefix(spec.qualifiedName()) + "note: above " + AlltoallJson.MAX_RANKS_WITH_PROGRAMS
                        + " ranks the JSON carries the messages, not the programs (hundreds of MB): it cannot be read"
                        + " back by schedule --verify or simulate --schedule");
                err.flush();
            }
        } else {
            printSteps(out, scenario, schedule, torus, counts);
        }
        out.flush();
        PrintWriter log = json ? err : out;
        try {
            Map<String, Picture> pictures = png != null || svg != null ? pictures(schedule, torus, scenario) : Map.of();
            for (Map.Entry<String, Picture> e : pictures.entrySet()) {
                if (png != null) {
                    Path target = ScheduleCommand.pictureFile(png, e.getKey(), ".png");
                    e.getValue().writePng(target);
                    log.println("wrote " + target);
                }
                if (svg != null) {
                    Path target = ScheduleCommand.pictureFile(svg, e.getKey(), ".svg");
                    e.getValue().writeSvg(target);
                    log.println("wrote " + target);
                }
            }
        } catch (IOException e) {
            err.println(Tools.prefix(spec.qualifiedName()) + "cannot write the pictures: "
                    + IoErrors.reason(e));
            err.flush();
            return Tools.FAILED;
        }
        log.flush();
        return 0;
    }

    private static Mesh checkTorus(Scenario scenario) throws BadInput {
        if (!(scenario.topology() instanceof Mesh mesh) || !mesh.wraps() || mesh.dimensions() != 2
                || mesh.extent(0) != mesh.extent(1)) {
            throw new BadInput("--op alltoall needs --fabric torus:NxN (a square 2D torus"
                    + (scenario.fabric() == null ? "" : "; got " + scenario.fabric()) + ")");
        }
        if (scenario.ranks() != mesh.nodes()) {
            throw new BadInput("-np " + scenario.ranks() + " on " + scenario.fabric() + " (expected: " + mesh.nodes()
                    + ", every node of the torus)");
        }
        if (!scenario.placement().equals("identity")) {
            throw new BadInput("--placement " + scenario.placement() + " with --op alltoall (expected: identity; "
                    + "rank = node id = row*N + column)");
        }
        return mesh;
    }

    /** One line per step: messages, largest message, hop lengths; then the counts. */
    private static void printSteps(PrintWriter out, Scenario scenario, Schedule s, Mesh torus, AlltoallJson.Counts c) {
        out.println(s.algorithm() + ": alltoall over " + s.ranks() + " ranks on " + scenario.fabric() + ", "
                + s.messageBytes() + " byte" + (s.messageBytes() == 1 ? "" : "s") + " per block"
                + (s.note().isEmpty() ? "" : " (" + s.note() + ")"));
        TreeMap<Integer, long[]> steps = new TreeMap<>(); // messages, largest, min hops, max hops
        for (int[] m : AlltoallJson.sendsInStepOrder(s)) {
            Instruction in = s.program(m[0]).get(m[1]);
            int hops = (in.hasPath() ? in.path() : torus.route(m[0], in.peer())).length - 1;
            long[] row = steps.computeIfAbsent(in.step(), k -> new long[] {0, 0, Long.MAX_VALUE, 0});
            row[0]++;
            row[1] = Math.max(row[1], in.blocks().size());
            row[2] = Math.min(row[2], hops);
            row[3] = Math.max(row[3], hops);
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"step", "messages", "largest (blocks)", "hops"});
        for (Map.Entry<Integer, long[]> e : steps.entrySet()) {
            long[] v = e.getValue();
            rows.add(new String[] {e.getKey().toString(), Long.toString(v[0]), Long.toString(v[1]),
                v[2] == v[3] ? Long.toString(v[2]) : v[2] + "-" + v[3]});
        }
        ScheduleCommand.printColumns(out, rows, -1);
        out.println("start-ups: " + c.steps() + ", transmitted: " + c.transmitted() + " block-units, rearranged: "
                + c.rearranged() + " block-units (every block delivered exactly once)");
    }

    /** FILE-stepK: the messages of step K on the torus, coloured by step. */
    private static Map<String, Picture> pictures(Schedule s, Mesh torus, Scenario scenario) {
        TreeMap<Integer, List<Route>> routes = new TreeMap<>();
        TreeMap<Integer, Map<Integer, Role>> roles = new TreeMap<>();
        for (int[] m : AlltoallJson.sendsInStepOrder(s)) {
            Instruction in = s.program(m[0]).get(m[1]);
            List<Coord> hops = new ArrayList<>();
            for (int node : in.hasPath() ? in.path() : torus.route(m[0], in.peer())) {
                hops.add(MeshFabricViews.coord(torus, node));
            }
            routes.computeIfAbsent(in.step(), k -> new ArrayList<>()).add(Route.of(in.step(), hops));
            Map<Integer, Role> r = roles.computeIfAbsent(in.step(), k -> new LinkedHashMap<>());
            r.put(m[0], Role.SOURCE);
            r.putIfAbsent(in.peer(), Role.DESTINATION);
        }
        Map<String, Picture> pictures = new LinkedHashMap<>();
        int total = routes.size();
        for (Map.Entry<Integer, List<Route>> e : routes.entrySet()) {
            List<Node> nodes = new ArrayList<>();
            for (Map.Entry<Integer, Role> r : roles.get(e.getKey()).entrySet()) {
                nodes.add(new Node(MeshFabricViews.coord(torus, r.getKey()), r.getValue(), ""));
            }
            String title = s.algorithm() + " all-to-all on " + scenario.fabric() + ": step " + e.getKey() + " of "
                    + total;
            String subtitle = e.getValue().size() + " messages · senders filled, receivers open · "
                    + "x = first coordinate (row), y = second (column)";
            pictures.put("-step" + e.getKey(), SchedulePictures.fabric(new FabricView(title, subtitle,
                    torus.extent(0), torus.extent(1), true, nodes, e.getValue())));
        }
        return pictures;
    }
}
