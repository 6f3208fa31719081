package io.mpirunj.collectives.runner;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One schedule rank's program compiled for execution: its receives and its sends, each in program
 * order, with the byte ranges of the buffer every message carries and, for each send, the earlier
 * receives that provide its data. Immutable; built once per (schedule, rank) and shared by every
 * execution of it (see {@link CompiledSchedule}).
 *
 * <h2>Message layout</h2>
 * A message carries its blocks' bytes in buffer order: the blocks are sorted by offset and adjacent
 * ones merged, so sender and receiver agree on the layout even when they list the blocks in a
 * different order (the verifier accepts that). A message of one contiguous range moves straight
 * from and into the user buffer; a message of several ranges is packed into / unpacked from a
 * scratch buffer.
 *
 * <h2>Holding</h2>
 * As in {@link io.mpirunj.collectives.schedule.ProgramAnalysis}: a send's block is held from the
 * start (the root holds the whole buffer) or from the first earlier receive of that block, or of
 * the whole buffer when the block is a segment.
 */
final class RankPlan {

    private static final int[] NONE = new int[0];

    /** A message this rank sends or receives. */
    static final class Message {
        /** Schedule ranks: the destination of a send; the source(s) of a receive. */
        final int[] peers;
        /** Byte ranges [ranges[2i], ranges[2i+1]) of the buffer, sorted, disjoint, non-adjacent. */
        final long[] ranges;
        /** Receives (indices into {@link #receives}) whose data this send carries; empty for receives. */
        final int[] providers;
        /** Index of the instruction in the rank's program, for error messages. */
        final int programIndex;

        Message(int[] peers, long[] ranges, int[] providers, int programIndex) {
            this.peers = peers;
            this.ranges = ranges;
            this.providers = providers;
            this.programIndex = programIndex;
        }

        boolean contiguous() {
            return ranges.length == 2;
        }

        boolean firstOf() {
            return peers.length > 1;
        }
    }

    final int rank;
    final long messageBytes;
    final Message[] receives;
    final Message[] sends;

    private RankPlan(int rank, long messageBytes, Message[] receives, Message[] sends) {
        this.rank = rank;
        this.messageBytes = messageBytes;
        this.receives = receives;
        this.sends = sends;
    }

    /**
     * Compiles {@code rank}'s program.
     *
     * @throws UnsupportedOperationException for an all-to-all schedule: the IR does not yet say where
     *     an (origin, destination) block lives in a rank's send and receive buffers
     * @throws IllegalStateException when the program sends data it does not hold (a builder bug the
     *     {@link io.mpirunj.collectives.schedule.Verifier} reports too)
     */
    static RankPlan compile(Schedule schedule, int rank) {
        if (!schedule.collective().rooted()) {
            throw unsupported(schedule);
        }
        List<Instruction> program = schedule.program(rank);
        List<Message> receives = new ArrayList<>();
        List<Message> sends = new ArrayList<>();
        Map<Block, Integer> heldFrom = new HashMap<>();
        for (Block b : schedule.initialBlocks(rank)) {
            heldFrom.put(b, -1);
        }
        for (int i = 0; i < program.size(); i++) {
            Instruction in = program.get(i);
            long[] ranges = ranges(schedule, in);
            if (!in.isSend()) {
                int index = receives.size();
                receives.add(new Message(in.peers(), ranges, NONE, i));
                for (Block b : in.blocks()) {
                    heldFrom.putIfAbsent(b, index);
                }
                continue;
            }
            int[] providers = new int[in.blocks().size()];
            int n = 0;
            for (Block b : in.blocks()) {
                Integer source = heldFrom.get(b);
                if (source == null && b instanceof Block.Segment) {
                    source = heldFrom.get(Block.WHOLE);
                }
                if (source == null) {
                    throw new IllegalStateException(schedule + ": rank " + rank + " #" + i + " (" + in
                            + ") sends " + b + " which it does not hold at that point (builder bug; see Verifier)");
                }
                if (source >= 0 && !contains(providers, n, source)) {
                    providers[n++] = source;
                }
            }
            sends.add(new Message(in.peers(), ranges, n == 0 ? NONE : Arrays.copyOf(providers, n), i));
        }
        return new RankPlan(rank, schedule.messageBytes(), receives.toArray(new Message[0]),
                sends.toArray(new Message[0]));
    }

    static UnsupportedOperationException unsupported(Schedule schedule) {
        return new UnsupportedOperationException("cannot run " + schedule + ": the runner executes rooted "
                + "(bcast/multicast) schedules of whole-buffer and segment blocks; the schedule IR has no "
                + "buffer layout for (origin, destination) all-to-all blocks yet");
    }

    /** The sorted, merged byte ranges of an instruction's blocks. */
    private static long[] ranges(Schedule schedule, Instruction in) {
        List<Block> blocks = in.blocks();
        long total = schedule.messageBytes();
        long[] raw = new long[2 * blocks.size()];
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            if (b instanceof Block.Whole) {
                raw[2 * i] = 0;
                raw[2 * i + 1] = total;
            } else if (b instanceof Block.Segment s) {
                if (s.end() > total) {
                    throw new IllegalStateException(schedule + ": " + in + " names " + s
                            + " past the end of the buffer (messageBytes=" + total + ")");
                }
                raw[2 * i] = s.offset();
                raw[2 * i + 1] = s.end();
            } else {
                throw unsupported(schedule);
            }
        }
        if (blocks.size() == 1) {
            return raw;
        }
        Integer[] order = new Integer[blocks.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(raw[2 * a], raw[2 * b]));
        long[] merged = new long[raw.length];
        int n = 0;
        for (int i : order) {
            long start = raw[2 * i];
            long end = raw[2 * i + 1];
            if (n > 0 && start <= merged[n - 1]) {
                merged[n - 1] = Math.max(merged[n - 1], end);
            } else {
                merged[n++] = start;
                merged[n++] = end;
            }
        }
        return Arrays.copyOf(merged, n);
    }

    private static boolean contains(int[] values, int n, int value) {
        for (int i = 0; i < n; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }
}
