package io.mpirunj.launcher.tools;

import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.torus.TorusAlltoalls;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.Fabric;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The options {@code schedule} and {@code simulate} share (a picocli mixin): what is multicast,
 * over how many ranks, on which model or fabric, evaluated how. {@link #resolve()} checks them all
 * and returns the {@link Scenario}; every problem is a one-line {@link BadInput}.
 *
 * <h2>Models</h2>
 * Without {@code --fabric} the timing is {@code --model} (default {@link #DEFAULT_MODEL}). With
 * {@code --fabric}, {@code --fabric-params} chooses the timing: flit-level wormhole parameters
 * ({@code ss=..}) or a cost model spec (the same role as {@code --model}; give it once); without it
 * the fabric runs in cost-model mode on {@code --model}. The builders (OPT-tree, OPT-mesh, ...)
 * plan with {@code --model}, or, with flit parameters and no {@code --model}, with
 * {@link Fabric#builderModel}.
 */
final class ScenarioOptions {

    /** Paper 000's IBM SP model (µs, m = message bytes): the model when none is given. */
    static final String DEFAULT_MODEL = "hold=20+0.02m,end=55+0.07m";

    /** What a schedule file sets and refuses ({@link #resolveFor}), for schedule --from and simulate --schedule. */
    static final String FROM_FILE_HELP = "-np, --root and --size default to the file's ranks, root and size, "
            + "--op to its operation (bcast, multicast or alltoall), --eval to its evaluation, and --model, without "
            + "--fabric, to the cost model the file names (a note says when it names none that can be restored, e.g. "
            + "a fabric's); another --model replaces that model, another --size resizes a schedule that moves the "
            + "whole buffer (or an all-to-all's whole blocks), and another -np, --root or --op is refused. Fields the "
            + "exports do not write, numbers that are not whole ones in range, and paths that do not walk --fabric "
            + "from sender to receiver as --placement puts them, are refused.";

    @Option(names = "--op", paramLabel = "OP", defaultValue = "bcast",
            description = "bcast (all ranks), multicast (a group; ranks are group indices), or "
                    + "alltoall (schedule only, on --fabric torus:NxN). Default: ${DEFAULT-VALUE}.")
    String op;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "K",
            description = "Number of ranks (group members), source included. Required without --fabric; "
                    + "with it (e.g. a torus all-to-all), the default is the number of --placement addresses, else every node of the fabric.")
    Integer np;

    @Option(names = "--root", paramLabel = "R", defaultValue = "0",
            description = "The source rank, 0..K-1, or on a fabric the address of the source's node "
                    + "(on star:4 e.g. dcba or 4321). Default: ${DEFAULT-VALUE}.")
    String root;

    @Option(names = "--model", paramLabel = "SPEC",
            description = {"Cost model, in model time units:",
                "hold=20,end=55 (t_hold, t_end > 0);",
                "hold=20+0.02m,end=55+0.07m (linear in m = --size bytes);",
                "logp:L=6,o=2,g=4 (t_hold = g, t_end = L+2o > 0);",
                "either may take ports=P (multi-port nodes);",
                "hold=..,end=.. also cpus=C (the cores all nodes share),",
                "wake=W[+Xm] (with cpus: a receiver's wait for a core),",
                "rndv=R (above R bytes: rendezvous),",
                "e.g. hold=20,end=55,ports=2 or",
                "hold=20,end=55,cpus=2,wake=30;",
                "pairs:PATH (a per-pair cost matrix) or PATH.json (a model file calibrate --out wrote).",
                "Default: " + DEFAULT_MODEL + " (paper 000's IBM SP, µs)."})
    String model;

    /** The largest {@code --size}: 2^62 - 1 bytes. */
    static final long MAX_SIZE = (1L << 62) - 1;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "1",
            description = "Message size in bytes (matters for linear models and the flit-level fabric). "
                    + "Default: ${DEFAULT-VALUE}.")
    long size;

    @Option(names = "--eval", paramLabel = "event|rounds", defaultValue = "event",
            description = "event: event-driven virtual time (a node's sends t_hold apart, delivery t_end "
                    + "after the send starts; on a fabric, the fabric's timing). rounds: the papers' step "
                    + "counting, each round costs its longest t_end (the fabric's routes are not evaluated). "
                    + "Default: ${DEFAULT-VALUE}.")
    String eval;

    @Option(names = "--fabric", paramLabel = "TOPO",
            description = "Run on a routed wormhole fabric, e.g. mesh:6x6, torus:4x4x4, hypercube:4, star:5 or "
                    + "complete:8.")
    String fabric;

    @Option(names = "--fabric-params", paramLabel = "P",
            description = {"The fabric's timing, one of:",
                WormholeParams.FORM + ": flit level,",
                "e.g. ss=2000,sd=2,cd=2,rs=3500,rd=3: contention delays messages, and the builders plan with --model, "
                        + "else with the nominal",
                "hold=ss+sd*m,end=ss+rs+(sd+cd+rd)*m;",
                Fabric.MODEL_PARAMS_FORM + ": a cost model as --model,",
                ModelSpec.LOGP_FORM + ": the same in LogP terms;",
                "a cost model gives its timing (contention is only reported). Default: the --model."})
    String fabricParams;

    @Option(names = "--placement", paramLabel = "PL",
            description = "Which fabric node each rank is on: identity (default), random:SEED, or one "
                    + "address per rank, e.g. 3/2,1/5,2/1 (rank i on the i-th address; the list's length is the "
                    + "default -np).")
    String placement;

    @Option(names = "--ports", paramLabel = "one-port|all-port",
            description = "How nodes attach to the fabric's routers. Default: one-port (all-port on a star graph).")
    String ports;

    /** The command this mixin is part of: which options its command line gave (null when built by hand). */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * A schedule read from a file, as the options say to evaluate it (resized by --size), and its scenario;
     * {@code note}: what of the file's simulation could not be restored, or null.
     */
    record FromFile(Scenario scenario, Schedule schedule, String note) {
        /** Prints the note, if any, as one line on {@code err}. */
        void printNote(picocli.CommandLine.Model.CommandSpec spec, java.io.PrintWriter err) {
            if (note != null) {
                err.println(Tools.prefix(spec.qualifiedName()) + "note: " + note);
                err.flush();
            }
        }
    }

    /**
     * For a schedule read from {@code path} ({@code simulate --schedule}, {@code schedule --from}): its root, bytes and
     * (one-to-many) operation, its ranks and the model it was simulated on unless -np or --model say otherwise (a
     * model it names that does not parse, e.g. a fabric's, is left out), so that the header says what is simulated and
     * {@code schedule --from FILE --json} writes the file's bytes again. An option given that the file contradicts is
     * bad input: another -np, --root or --op than the file's; another --size resizes a schedule that moves the whole
     * buffer ({@link Schedule#withMessageBytes}) and is refused for one that cuts it into blocks.
     */
    FromFile resolveFor(ScheduleCommand.ScheduleFile file, Path path) throws BadInput {
        Schedule schedule = file.schedule();
        if (np == null) {
            np = schedule.ranks();
        }
        boolean rootGiven = given("--root");
        boolean sizeGiven = given("--size");
        boolean opGiven = given("--op");
        if (rootGiven && schedule.root() < 0) {
            throw new BadInput("--root " + root + ": the schedule in " + path + " (" + schedule.collective().label()
                    + ") has no root (leave --root out)");
        }
        if (!rootGiven) {
            root = String.valueOf(Math.max(0, schedule.root()));
        }
        if (!sizeGiven) {
            size = schedule.messageBytes();
        }
        if (!opGiven && (schedule.collective().rooted() || schedule.collective() == Collective.ALLTOALL)) {
            op = schedule.collective().label();
        }
        int side = TorusAlltoalls.side(schedule.ranks());
        if (schedule.collective() == Collective.ALLTOALL && fabric == null && side > 0) {
            fabric = "torus:" + side + "x" + side; // the only fabric an all-to-all schedule is made on
        }
        String note = null;
        if (model == null && fabric == null && file.model() != null) {
            try {
                ModelSpec.parse(file.model());
                model = file.model();
            } catch (IllegalArgumentException notACostModel) {
                note = path + " was simulated on '" + file.model() + "', which is not a cost model spec (e.g. a"
                        + " fabric's): simulated on the default model; give the --fabric, --placement and --model it"
                        + " was made with";
            }
        }
        if (!given("--eval") && file.evaluation() != null) {
            if (!file.evaluation().equals("event") && !file.evaluation().equals("rounds")) {
                throw new BadInput(path + ": \"evaluation\": \"" + file.evaluation() + "\" (expected: event or rounds)");
            }
            eval = file.evaluation();
        }
        Scenario scenario = resolve();
        if (scenario.ranks() != schedule.ranks()) {
            throw new BadInput("-np " + scenario.ranks() + " differs from the " + schedule.ranks() + " ranks of the "
                    + "schedule in " + path + " (leave -np out)");
        }
        if (opGiven && scenario.op() != schedule.collective()) {
            throw new BadInput("--op " + op.trim() + " differs from the " + schedule.collective().label()
                    + " of the schedule in " + path + " (leave --op out)");
        }
        if (rootGiven && scenario.root() != schedule.root()) {
            throw new BadInput("--root " + root.trim() + " differs from the schedule's root " + schedule.root() + " in "
                    + path + " (leave --root out)");
        }
        if (scenario.bytes() != schedule.messageBytes()) {
            try {
                schedule = schedule.withMessageBytes(scenario.bytes());
            } catch (IllegalArgumentException e) {
                throw new BadInput("--size " + scenario.bytes() + " differs from the schedule's " + schedule.messageBytes()
                        + " bytes in " + path + ", and " + e.getMessage() + " (leave --size out)");
            }
        }
        checkPaths(scenario, schedule, path);
        return new FromFile(scenario, schedule, note);
    }

    /**
     * On a fabric, every explicit path of the file's sends must walk its links from the sender's node to the
     * receiver's, as this run places the ranks: paths written for another fabric or placement were simulated along
     * routes that do not exist (or failed with a stack trace).
     */
    private static void checkPaths(Scenario scenario, Schedule schedule, Path path) throws BadInput {
        if (!scenario.onFabric()) {
            return;
        }
        io.mpirunj.fabric.topology.Topology t = scenario.topology();
        int[] nodeOf = scenario.nodeOf();
        for (int r = 0; r < schedule.ranks(); r++) {
            List<io.mpirunj.collectives.schedule.Instruction> program = schedule.program(r);
            for (int i = 0; i < program.size(); i++) {
                io.mpirunj.collectives.schedule.Instruction in = program.get(i);
                if (!in.isSend() || !in.hasPath()) {
                    continue;
                }
                String why = null;
                for (int node : in.path()) {
                    if (node < 0 || node >= t.nodes()) {
                        why = "node " + node + " (expected: 0.." + (t.nodes() - 1) + ")";
                        break;
                    }
                }
                if (why == null) {
                    try {
                        t.channels(in.path(), nodeOf[r], nodeOf[in.peer()]);
                    } catch (IllegalArgumentException e) {
                        why = e.getMessage();
                    }
                }
                if (why != null) {
                    throw new BadInput(path + ": rank " + r + " #" + i + " (" + in + "): its path on " + scenario.fabric()
                            + " with placement " + scenario.placement() + ": " + why + " (give the --fabric and "
                            + "--placement the schedule was made for)");
                }
            }
        }
    }

    /** True if the command line gave {@code option} (its default is not the user's word). */
    private boolean given(String option) {
        ParseResult parsed = command == null ? null : command.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption(option);
    }

    /**
     * The heap a schedule and its simulation take per rank, about: {@code simulate -np 1048576 --algo binomial}
     * peaked at 1.7 GiB. Beyond the JVM's heap, a run would end in an OutOfMemoryError after minutes.
     */
    static final long SIMULATED_RANK_BYTES = 2_048;

    /** Checks every option; the result can build and simulate schedules. */
    Scenario resolve() throws BadInput {
        Collective collective = switch (op.trim().toLowerCase(Locale.ROOT)) {
            case "bcast" -> Collective.BCAST;
            case "multicast" -> Collective.MULTICAST;
            case "alltoall" -> Collective.ALLTOALL;
            default -> throw new BadInput("--op " + op + " (expected: bcast, multicast or alltoall)");
        };
        int ranks = ranks();
        if (ranks < 1) {
            throw new BadInput("-np " + ranks + " (expected: a number of ranks >= 1)");
        }
        long heap = Runtime.getRuntime().maxMemory();
        if ((long) ranks * SIMULATED_RANK_BYTES > heap) {
            throw new BadInput("-np " + ranks + ": schedules of that many ranks need about "
                    + ((long) ranks * SIMULATED_RANK_BYTES >> 20) + " MiB of heap (2 KiB a rank), and this JVM has at "
                    + "most " + (heap >> 20) + " MiB (run fewer ranks, or give it more: MPIRUNJ_JAVA_OPTS=-Xmx...)");
        }
        String rootText = root.trim();
        boolean numeric = rootText.matches("-?[0-9]{1,9}");
        int rootRank = numeric ? Integer.parseInt(rootText) : -1;
        // A number outside 0..K-1 may still be a node address on a fabric (star:4's 4321).
        boolean rootIsRank = numeric && rootRank >= 0 && rootRank < ranks;
        if (numeric && !rootIsRank && fabric == null) {
            throw new BadInput("--root=" + rootRank + " outside 0.." + (ranks - 1) + " (the group has -np " + ranks
                    + " ranks)");
        }
        if (!rootIsRank && fabric == null) {
            throw new BadInput("--root " + root + " (expected: a rank 0.." + (ranks - 1)
                    + "; a node address needs --fabric)");
        }
        if (size < 0 || size > MAX_SIZE) { // beyond it the builders' size classes overflow
            throw new BadInput("--size " + size + " (expected: a number of bytes from 0 to " + MAX_SIZE + ")");
        }
        Evaluation evaluation = switch (eval.trim().toLowerCase(Locale.ROOT)) {
            case "event" -> Evaluation.EVENT;
            case "rounds" -> Evaluation.ROUNDS;
            default -> throw new BadInput("--eval " + eval + " (expected: event or rounds)");
        };
        CostModel given = model == null ? null : parseModel("--model", model);
        if (fabric == null) {
            for (String[] o : new String[][] {{"--fabric-params", fabricParams}, {"--placement", placement},
                {"--ports", ports}}) {
                if (o[1] != null) {
                    throw new BadInput(o[0] + " " + o[1] + " needs --fabric TOPO (e.g. --fabric mesh:6x6)"
                            + (o[0].equals("--ports") ? "; on a plain model write ports=P in --model" : ""));
                }
            }
            CostModel m = given != null ? given : ModelSpec.parse(DEFAULT_MODEL);
            return new Scenario(collective, ranks, rootRank, size, m, evaluation, null, null, null, null, null);
        }
        Topology topology;
        try {
            topology = Topology.parse(fabric);
        } catch (IllegalArgumentException e) {
            throw new BadInput("--fabric: " + e.getMessage());
        }
        NodeModel nodeModel;
        try {
            nodeModel = ports != null ? NodeModel.parse(ports)
                    : topology instanceof StarGraph ? NodeModel.ALL_PORT : NodeModel.ONE_PORT;
        } catch (IllegalArgumentException e) {
            throw new BadInput("--ports: " + e.getMessage());
        }
        int[] nodeOf;
        try {
            nodeOf = Placement.parse(placement == null ? "identity" : placement, topology, ranks);
        } catch (IllegalArgumentException e) {
            throw new BadInput("--placement" + (placement == null ? " identity (the default)" : "") + ": "
                    + e.getMessage());
        }
        if (!rootIsRank) {
            rootRank = rankAt(topology, nodeOf, rootText, numeric ? "--root=" + rootRank + " outside 0.." + (ranks - 1)
                    + " (the group has -np " + ranks + " ranks) and not a node address of " + topology : null);
        }
        CostModel builderModel;
        WormholeNetwork network;
        if (fabricParams != null && Fabric.isFlitParams(fabricParams)) {
            WormholeParams params;
            try {
                params = WormholeParams.parse(fabricParams);
            } catch (IllegalArgumentException e) {
                throw new BadInput("--fabric-params: " + e.getMessage());
            }
            builderModel = given != null ? given : Fabric.builderModel(fabricParams);
            network = Fabric.network(topology, params, nodeModel);
        } else {
            CostModel fromParams;
            try {
                fromParams = fabricParams == null ? null : Fabric.builderModel(fabricParams);
            } catch (IllegalArgumentException e) {
                throw new BadInput("--fabric-params: " + e.getMessage());
            }
            if (fromParams != null && given != null && !fromParams.toString().equals(given.toString())) {
                throw new BadInput("--model " + model + " and --fabric-params " + fabricParams
                        + " are two cost models (give it once; --fabric-params takes ss=... for flit-level timing)");
            }
            builderModel = given != null ? given : fromParams != null ? fromParams : ModelSpec.parse(DEFAULT_MODEL);
            network = Fabric.network(topology, builderModel, nodeModel);
        }
        return new Scenario(collective, ranks, rootRank, size, builderModel, evaluation, topology, fabric.trim(),
                placement == null ? "identity" : placement.trim(), nodeOf, network);
    }

    /**
     * {@code -np}, else what the fabric fixes: the length of an explicit {@code --placement} list, or
     * every node of {@code --fabric} (star:5 has 120, torus:4x4 16). A {@code -np} that contradicts
     * the list is an error here, before anything is built.
     */
    private int ranks() throws BadInput {
        int listed = fabric == null || placement == null ? -1 : Placement.listedRanks(placement);
        if (np != null) {
            if (listed >= 0 && listed != np) {
                throw new BadInput("-np " + np + " but --placement lists " + listed + " node"
                        + (listed == 1 ? "" : "s") + " (give one address per rank, or leave -np out)");
            }
            return np;
        }
        if (listed >= 0) {
            return listed;
        }
        if (fabric == null && "alltoall".equals(op == null ? null : op.trim())) {
            throw new BadInput("--op alltoall needs --fabric torus:NxN (its ranks are the torus's N*N nodes)");
        }
        if (fabric == null) {
            throw new BadInput("missing -np K (the number of ranks, source included; with --fabric it "
                    + "defaults to every node)");
        }
        try {
            return Topology.parse(fabric).nodes();
        } catch (IllegalArgumentException e) {
            throw new BadInput("--fabric: " + e.getMessage());
        }
    }

    /** The rank placed on the node at {@code address}. */
    private static int rankAt(Topology topology, int[] nodeOf, String address, String numericError) throws BadInput {
        int node;
        try {
            node = topology.node(address);
        } catch (IllegalArgumentException e) {
            throw new BadInput(numericError != null ? numericError : "--root: " + e.getMessage());
        }
        for (int r = 0; r < nodeOf.length; r++) {
            if (nodeOf[r] == node) {
                return r;
            }
        }
        throw new BadInput("--root " + address + ": no rank is placed on that node (expected: a rank 0.."
                + (nodeOf.length - 1) + " or the address of a placed node)");
    }

    private static CostModel parseModel(String option, String spec) throws BadInput {
        try {
            return ModelSpec.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new BadInput(option + ": " + e.getMessage());
        }
    }
}
