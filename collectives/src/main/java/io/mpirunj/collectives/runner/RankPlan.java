package io.mpirunj.collectives.runner;

import io.mpirunj.Op;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.ProgramAnalysis;
import io.mpirunj.collectives.schedule.ProgramAnalysis.Location;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayList;
import java.util.List;

/**
 * One schedule rank's program compiled for execution: for each instruction (in program order) the
 * locations its bytes occupy and the instructions it waits for, all taken from the schedule's one
 * {@link ProgramAnalysis}. Immutable; built once per (schedule, rank) and shared by every execution
 * of it (see {@link CompiledSchedule}).
 *
 * <h2>Message layout</h2>
 * A message carries its blocks' bytes in the analysis's wire order; adjacent locations in the same
 * buffer are merged. A message of one location moves straight from and into the buffer; a message of
 * several is packed into / unpacked from a temporary buffer.
 */
final class RankPlan {

    /** One instruction of the program. */
    static final class Step {
        final Instruction.Kind kind;
        /** Schedule ranks: the destination of a send; the source(s) of a receive; empty for local ops. */
        final int[] peers;
        /** Where the bytes of a message (in wire order) or a local op's source live. */
        final Location[] locations;
        /** What a local op writes; null for messages. */
        final Location target;
        final Op op;
        /** Program indices of the steps that wrote what this one reads. */
        final int[] providers;
        /** Program indices of the steps that must complete before this one may overwrite bytes. */
        final int[] hazards;
        /** Index in the program, for error messages. */
        final int index;

        Step(Instruction in, Location[] locations, Location target, int[] providers, int[] hazards, int index) {
            this.kind = in.kind();
            this.peers = in.peers();
            this.locations = locations;
            this.target = target;
            this.op = in.op();
            this.providers = providers;
            this.hazards = hazards;
            this.index = index;
        }

        boolean isSend() {
            return kind == Instruction.Kind.SEND;
        }

        boolean isReceive() {
            return kind == Instruction.Kind.RECV || kind == Instruction.Kind.RECV_FIRST_OF;
        }

        boolean firstOf() {
            return peers.length > 1;
        }

        /** Bytes the message carries (a local op: its source's size). */
        long bytes() {
            long n = 0;
            for (Location l : locations) {
                n += l.bytes();
            }
            return n;
        }
    }

    final int rank;
    final long messageBytes;
    final long scratchBytes;
    final Step[] steps;
    final int sendCount;
    final int receiveCount;
    final int localCount;

    private RankPlan(int rank, long messageBytes, long scratchBytes, Step[] steps) {
        this.rank = rank;
        this.messageBytes = messageBytes;
        this.scratchBytes = scratchBytes;
        this.steps = steps;
        int s = 0;
        int r = 0;
        int l = 0;
        for (Step step : steps) {
            if (step.isSend()) {
                s++;
            } else if (step.isReceive()) {
                r++;
            } else {
                l++;
            }
        }
        this.sendCount = s;
        this.receiveCount = r;
        this.localCount = l;
    }

    /**
     * Compiles {@code rank}'s program.
     *
     * @throws IllegalStateException when the analysis found the schedule broken (a builder bug the
     *     {@link io.mpirunj.collectives.schedule.Verifier} reports too)
     */
    static RankPlan compile(ProgramAnalysis analysis, int rank) {
        Schedule schedule = analysis.schedule();
        if (!analysis.ok()) {
            throw new IllegalStateException("cannot run invalid schedule " + schedule + ":\n  "
                    + String.join("\n  ", analysis.errors()));
        }
        List<Instruction> program = schedule.program(rank);
        Step[] steps = new Step[program.size()];
        int first = analysis.id(rank, 0);
        for (int i = 0; i < steps.length; i++) {
            int id = first + i;
            int[] providers = new int[analysis.providerCount(id)];
            for (int k = 0; k < providers.length; k++) {
                providers[k] = analysis.provider(id, k) - first;
            }
            int[] hazards = new int[analysis.hazardCount(id)];
            for (int k = 0; k < hazards.length; k++) {
                hazards[k] = analysis.hazard(id, k) - first;
            }
            Instruction in = program.get(i);
            steps[i] = new Step(in, merged(analysis.locations(id)), analysis.target(id), providers, hazards, i);
        }
        return new RankPlan(rank, schedule.messageBytes(), analysis.scratchBytes(rank), steps);
    }

    /** Merges neighbouring locations of one buffer (never all-to-all blocks, which displacements may move). */
    private static Location[] merged(List<Location> locations) {
        List<Location> out = new ArrayList<>(locations.size());
        for (Location l : locations) {
            if (!out.isEmpty()) {
                Location last = out.get(out.size() - 1);
                if (last.role() == l.role() && last.end() == l.start() && last.block() < 0 && l.block() < 0) {
                    out.set(out.size() - 1, new Location(l.role(), last.start(), l.end(), -1));
                    continue;
                }
            }
            out.add(l);
        }
        return out.toArray(new Location[0]);
    }

    /** True when this plan reads or writes {@code role}. */
    boolean uses(Block.Role role) {
        for (Step s : steps) {
            for (Location l : s.locations) {
                if (l.role() == role) {
                    return true;
                }
            }
            if (s.target != null && s.target.role() == role) {
                return true;
            }
        }
        return false;
    }
}
