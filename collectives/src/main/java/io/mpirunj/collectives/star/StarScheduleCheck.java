package io.mpirunj.collectives.star;

import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks an all-port star-graph broadcast schedule the way paper 004 counts it: on top of the
 * {@link Verifier} (every rank informed exactly once, no send before its data, no deadlock),
 * every send names an explicit path along star-graph links from the sender's node to the
 * receiver's, its port is its first link, and <b>within each step no two paths share a directed
 * channel and no node makes more than n - 1 sends</b>; a rank sends only in steps after the one it
 * received in. {@link #wormholeContentions} replays each step in the flit-level wormhole engine
 * (all-port), which must find no contention either.
 */
public final class StarScheduleCheck {

    /**
     * What the check found.
     *
     * @param problems   one line each (at most 50, then a count); empty when the schedule is valid
     * @param steps      the largest step of any send
     * @param sends      number of messages
     * @param maxHops    the longest path, in links
     * @param totalHops  links crossed by all messages
     * @param maxSendsPerStep the most sends one node makes in one step
     */
    public record Report(List<String> problems, int steps, int sends, int maxHops, long totalHops,
                         int maxSendsPerStep) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private static final int MAX_LISTED = 50;

    private StarScheduleCheck() {
    }

    /** {@link #check(Schedule, StarGraph, int[], boolean)} with the generic {@link Verifier} too. */
    public static Report check(Schedule schedule, StarGraph star, int[] nodeOf) {
        return check(schedule, star, nodeOf, true);
    }

    /**
     * Checks {@code schedule}, whose rank r runs on node {@code nodeOf[r]} of {@code star}.
     * Without {@code genericVerifier} the delivery contract is checked here, for the broadcast
     * shape the star builders produce (each rank but the root receives the whole buffer exactly
     * once, its only receive comes first in its program and names the rank that sends to it in
     * the same step; with sends only in later steps this also rules out deadlock): linear and
     * allocation-light, for S_9's 725,758 instructions, where the generic verifier takes many
     * seconds.
     */
    public static Report check(Schedule schedule, StarGraph star, int[] nodeOf, boolean genericVerifier) {
        List<String> problems = new ArrayList<>(genericVerifier ? Verifier.verify(schedule) : List.of());
        int[] errors = {problems.size()};
        int n = star.symbols();
        if (nodeOf.length != schedule.ranks()) {
            problems.add("placement has " + nodeOf.length + " nodes for " + schedule.ranks() + " ranks");
            return new Report(problems, 0, 0, 0, 0, 0);
        }
        int ranks = schedule.ranks();
        int[] receivedIn = new int[ranks];
        int[] receivedFrom = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            List<Instruction> program = schedule.program(r);
            int receives = 0;
            for (int i = 0; i < program.size(); i++) {
                Instruction in = program.get(i);
                if (in.isSend()) {
                    continue;
                }
                receives++;
                receivedIn[r] = Math.max(receivedIn[r], in.step());
                receivedFrom[r] = in.peer();
                if (!genericVerifier && (i != 0 || in.kind() != Instruction.Kind.RECV
                        || !in.blocks().equals(schedule.units()))) {
                    problem(problems, errors, "rank " + r + ": " + in + " (expected: one RECV of the whole buffer, "
                            + "first in the program)");
                }
            }
            if (!genericVerifier && receives != (r == schedule.root() ? 0 : 1)) {
                problem(problems, errors, "rank " + r + " has " + receives + " receives (expected: "
                        + (r == schedule.root() ? "none, it is the root" : "exactly one") + ")");
            }
        }
        int[] sentTo = new int[ranks];
        // Sends grouped by step, so the channel stamps below see one step at a time.
        List<List<long[]>> byStep = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            List<Instruction> program = schedule.program(r);
            for (int i = 0; i < program.size(); i++) {
                Instruction in = program.get(i);
                if (!in.isSend()) {
                    continue;
                }
                if (in.step() < 1) {
                    problem(problems, errors, "rank " + r + ": " + in + " has no step (expected: steps from 1)");
                    continue;
                }
                while (byStep.size() <= in.step()) {
                    byStep.add(new ArrayList<>());
                }
                byStep.get(in.step()).add(new long[] {r, i});
            }
        }
        int steps = byStep.isEmpty() ? 0 : byStep.size() - 1;
        int sends = 0;
        int maxHops = 0;
        long totalHops = 0;
        int maxSendsPerStep = 0;
        // Stamps instead of per-step sets: channel c was last used in step usedIn[c] (by rank usedBy[c]).
        int[] usedIn = new int[star.nodes() * (n - 1)];
        int[] usedBy = new int[usedIn.length];
        int[] sendStep = new int[ranks];
        int[] sendsInStep = new int[ranks];
        int[] a = new int[n];
        int[] b = new int[n];
        for (int step = 1; step <= steps; step++) {
            for (long[] ref : byStep.get(step)) {
                int r = (int) ref[0];
                Instruction in = schedule.program(r).get((int) ref[1]);
                sends++;
                int to = in.peer();
                if (!genericVerifier && (++sentTo[to] > 1 || receivedFrom[to] != r || receivedIn[to] != step
                        || !in.blocks().equals(schedule.units()))) {
                    problem(problems, errors, "rank " + r + ": " + in + " is not matched by rank " + to
                            + "'s one receive of the whole buffer from it in step " + step);
                }
                if (r != schedule.root() && step <= receivedIn[r]) {
                    problem(problems, errors, "rank " + r + ": " + in + " sends in step " + step
                            + " but receives only in step " + receivedIn[r]);
                }
                if (sendStep[r] != step) {
                    sendStep[r] = step;
                    sendsInStep[r] = 0;
                }
                if (++sendsInStep[r] == n) {
                    problem(problems, errors, "rank " + r + " makes more than " + (n - 1) + " sends in step " + step);
                }
                maxSendsPerStep = Math.max(maxSendsPerStep, sendsInStep[r]);
                int[] path = in.path();
                if (path.length == 0) {
                    problem(problems, errors, "rank " + r + ": " + in + " has no explicit path");
                    continue;
                }
                if (path[0] != nodeOf[r] || path[path.length - 1] != nodeOf[in.peer()]) {
                    problem(problems, errors, "rank " + r + ": " + in + " path runs from node " + path[0] + " to "
                            + path[path.length - 1] + " (expected: " + nodeOf[r] + " to " + nodeOf[in.peer()] + ")");
                    continue;
                }
                maxHops = Math.max(maxHops, path.length - 1);
                totalHops += path.length - 1;
                star.unrank(path[0], a);
                for (int i = 0; i + 1 < path.length; i++) {
                    if (path[i + 1] < 0 || path[i + 1] >= star.nodes()) {
                        problem(problems, errors, "rank " + r + ": " + in + " hop " + i + " leads to node "
                                + path[i + 1] + " (expected: 0.." + (star.nodes() - 1) + ")");
                        break;
                    }
                    star.unrank(path[i + 1], b);
                    int position = star.linkPosition(a, b);
                    if (position < 0) {
                        problem(problems, errors, "rank " + r + ": " + in + " hop " + i + " (" + star.label(path[i])
                                + " -> " + star.label(path[i + 1]) + ") is not a link");
                        break;
                    }
                    if (i == 0 && in.port() != Instruction.ANY_PORT && in.port() != position - 1) {
                        problem(problems, errors, "rank " + r + ": " + in + " names port " + in.port()
                                + " but leaves over link " + (position - 1));
                    }
                    int channel = path[i] * (n - 1) + position - 1;
                    if (usedIn[channel] == step) {
                        problem(problems, errors, "step " + step + ": channel " + star.label(path[i]) + "->"
                                + star.label(path[i + 1]) + " used by rank " + usedBy[channel] + " and rank " + r);
                    }
                    usedIn[channel] = step;
                    usedBy[channel] = r;
                    int[] t = a;
                    a = b;
                    b = t;
                }
            }
        }
        if (errors[0] > problems.size()) {
            problems.add("... and " + (errors[0] - problems.size()) + " more");
        }
        return new Report(List.copyOf(problems), steps, sends, maxHops, totalHops, maxSendsPerStep);
    }

    private static void problem(List<String> problems, int[] errors, String text) {
        if (errors[0]++ < MAX_LISTED) {
            problems.add(text);
        }
    }

    /**
     * What the step-by-step wormhole replay found.
     *
     * @param contentions every contention event (empty for a link-disjoint schedule)
     * @param stepTimes   stepTimes[t - 1]: from the start of step t to its last delivery
     */
    public record Replay(List<Contention> contentions, double[] stepTimes) {
        /** The step-synchronous completion time: each step starts when the previous one has delivered everything. */
        public double total() {
            double sum = 0;
            for (double t : stepTimes) {
                sum += t;
            }
            return sum;
        }
    }

    /**
     * Replays each step alone in the flit-level wormhole engine on {@code star}, all-port: all its
     * messages injected at time 0 along their paths ({@code schedule.messageBytes()} bytes each).
     * A link-disjoint schedule shows no contention, and each step lasts as long as its longest
     * path's t_end.
     */
    public static Replay wormholeReplay(Schedule schedule, StarGraph star, int[] nodeOf, WormholeParams params) {
        WormholeNetwork network = WormholeNetwork.flit(star, params, NodeModel.ALL_PORT);
        List<List<int[]>> byStep = new ArrayList<>();
        for (int r = 0; r < schedule.ranks(); r++) {
            for (Instruction in : schedule.program(r)) {
                if (in.isSend()) {
                    while (byStep.size() <= in.step()) {
                        byStep.add(new ArrayList<>());
                    }
                    byStep.get(in.step()).add(in.hasPath() ? in.path()
                            : star.route(nodeOf[r], nodeOf[in.peer()]));
                }
            }
        }
        List<Contention> all = new ArrayList<>();
        double[] stepTimes = new double[Math.max(0, byStep.size() - 1)];
        for (int step = 1; step < byStep.size(); step++) {
            List<int[]> paths = byStep.get(step);
            if (paths.isEmpty()) {
                continue;
            }
            WormholeNetwork.FabricRun run = network.open();
            int id = 0;
            for (int[] p : paths) {
                run.inject(id++, p[0], p[p.length - 1], schedule.messageBytes(), 0, p);
            }
            double last = 0;
            for (int i = 0; i < paths.size(); i++) {
                last = Math.max(last, run.nextDelivery());
                run.takeDelivery();
            }
            stepTimes[step - 1] = last;
            all.addAll(run.contentions());
        }
        return new Replay(List.copyOf(all), stepTimes);
    }

}
