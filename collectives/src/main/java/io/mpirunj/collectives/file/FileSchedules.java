package io.mpirunj.collectives.file;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.baseline.Multicasts;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.ScheduleJson;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.io.IoErrors;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/**
 * Schedules read from a JSON file ({@link ScheduleJson}: what {@code mpirun-j schedule --json}
 * writes, or one written by hand or generated elsewhere) and run live: {@code --coll
 * bcast=file:FILE.json}, {@code multicast=file:FILE.json} or {@code alltoall=file:FILE.json}. The file is read
 * and verified once,
 * when the algorithm is forced; a file that cannot be read, does not parse or fails the
 * {@link Verifier} is refused in one line naming the file (and the rank and instruction at fault).
 *
 * <p>A bcast schedule over p ranks rooted at index s runs on a communicator of p ranks from any root
 * r: schedule rank i is rank {@code (i - s + r) mod p}. A multicast schedule over m ranks runs on
 * {@code [root, group...]} (as every multicast), whose length must be m. An all-to-all schedule over p ranks runs on
 * a communicator of p ranks, schedule rank i as rank i, and its (origin, destination) blocks are the call's blocks
 * (of any size, when the file's blocks are all of one size).
 */
public final class FileSchedules {

    /** The name forced with {@code op=file:FILE.json}. */
    public static final String NAME = "file";

    private FileSchedules() {
    }

    /** The "file" entries of bcast, multicast and alltoall. */
    public static List<CollectiveAlgorithm> algorithms() {
        return List.of(new FileBcast(null, null), new FileMulticast(null, null), new FileAlltoall(null, null));
    }

    /** Reads and verifies {@code file}; every problem is one line. */
    static Schedule read(String file, Collective expected) {
        Schedule s;
        try {
            s = ScheduleJson.read(Files.readString(Path.of(file)));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read schedule file " + file + ": " + IoErrors.reason(e, file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
        if (expected.rooted() ? !s.collective().rooted() : s.collective() != expected) {
            throw new IllegalArgumentException(file + ": a schedule of " + s.collective().label() + " (expected: "
                    + (expected.rooted() ? "bcast or multicast" : expected.label()) + ")");
        }
        List<String> problems = Verifier.verify(s);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(file + ": invalid schedule: " + Verifier.inOneLine(problems));
        }
        if (s.collective().pairs() && !s.sizeFree()) {
            // an alltoall's blocks are all of the call's size: per-pair sizes or byte ranges would misplace its bytes
            throw new IllegalArgumentException(file + ": the schedule " + s.sizeBound() + " (expected for alltoall: "
                    + "whole (origin, destination) blocks, all of one size)");
        }
        return s.withCollective(expected);
    }

    /** At most this many other sizes of one file's size-free schedule are kept compiled. */
    static final int RESIZED_KEPT = 32;

    /**
     * What the entries share: the file, its compiled schedule, the bare entry's refusal, and how the entry is
     * forced with a file ({@link #withArgument}: its collective's schedule read from the file, in an entry of the
     * same class).
     */
    abstract static class FromFile implements CollectiveAlgorithm.Parameterized {
        final String file;
        final CompiledSchedule compiled;
        private final Collective collective;
        private final BiFunction<String, Schedule, FromFile> withFile;
        /** The file's schedule for other sizes, when it is {@link Schedule#sizeFree} (its size does not matter). */
        private final Map<Long, CompiledSchedule> resized = new ConcurrentHashMap<>();
        /** {@link Schedule#sizeFree}, found once: for an all-to-all it reads every instruction. */
        private final boolean sizeFree;

        FromFile(String file, Schedule schedule, Collective collective,
                BiFunction<String, Schedule, FromFile> withFile) {
            this.file = file;
            this.compiled = schedule == null ? null : CompiledSchedule.of(schedule);
            this.sizeFree = schedule != null && schedule.sizeFree();
            this.collective = collective;
            this.withFile = withFile;
        }

        @Override
        public final CollectiveAlgorithm withArgument(String argument) {
            return withFile.apply(argument, read(argument, collective));
        }

        /**
         * The schedule for {@code bytes} (a buffer, or an all-to-all's block): the file's, or, if it is size-free,
         * the same programs over {@code bytes}; a segmented one, or one with blocks of several sizes, only runs at its
         * own size.
         */
        final CompiledSchedule sized(CompiledSchedule c, long bytes) {
            Schedule s = c.schedule();
            if (s.messageBytes() == bytes) {
                return c;
            }
            if (!sizeFree) { // a bcast or multicast: an alltoall file is size-free (read)
                throw new IllegalArgumentException(op().cliName() + "=file:" + file + " cuts a " + s.messageBytes()
                        + "-byte buffer into " + s.units().size() + " segments (this call has " + bytes + " bytes): "
                        + "write one for that size, e.g. mpirun-j schedule --size " + bytes + " ... --json");
            }
            if (resized.size() >= RESIZED_KEPT) {
                resized.clear(); // a program with many sizes: bounded, at the price of compiling again
            }
            return resized.computeIfAbsent(bytes, b -> CompiledSchedule.of(s.withMessageBytes(b)));
        }

        @Override
        public String name() {
            return file == null ? NAME : NAME + ":" + file;
        }

        @Override
        public String description() {
            return "a schedule read from a JSON file (mpirun-j schedule --json format): " + op().cliName()
                    + "=file:FILE.json";
        }

        final CompiledSchedule compiled(int ranks) {
            if (compiled == null) {
                throw new IllegalStateException(op().cliName() + "=file needs a file: --coll " + op().cliName()
                        + "=file:FILE.json");
            }
            if (compiled.schedule().ranks() != ranks) {
                throw new IllegalArgumentException(op().cliName() + "=file:" + file + " is a schedule over "
                        + compiled.schedule().ranks() + " ranks (this call has " + ranks + ")");
            }
            return compiled;
        }

        /**
         * Runs (blocking: returns null) or starts this rank's part over {@code participants} (a rooted call's root
         * first), rotated so that the schedule's root index is the root: schedule rank i is
         * {@code participants[(i - scheduleRoot) mod m]} (an all-to-all has no root: {@code participants[i]}). A rank
         * not among them has nothing to do. {@code bytes}: the buffer's, or an all-to-all's block's.
         */
        final Request go(boolean blocking, CollChannel ch, ScheduleBuffers buffers, long bytes, int[] participants,
                int tag) {
            int m = participants.length;
            CompiledSchedule c = compiled(m);
            int first = Math.max(c.schedule().root(), 0);
            int[] ranks = new int[m];
            for (int i = 0; i < m; i++) {
                ranks[i] = participants[Math.floorMod(i - first, m)];
            }
            int me = Multicasts.indexOf(ranks, ch.rank());
            if (me < 0) {
                return blocking ? null : Multicasts.done(ch, buffers.recv(), tag);
            }
            c = sized(c, bytes);
            ScheduleRunner.checkBuffer(c.schedule(), buffers.recv());
            return ScheduleRequest.runOrStart(blocking, c, ch, buffers, ranks, me, tag);
        }
    }

    static final class FileBcast extends FromFile implements CollectiveAlgorithm.Bcast {
        FileBcast(String file, Schedule schedule) {
            super(file, schedule, Collective.BCAST, FileBcast::new);
        }

        @Override
        public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
            int p = ch.size();
            int[] fromRoot = IntStream.range(0, p).map(i -> (root + i) % p).toArray();
            return go(blocking, ch, ScheduleBuffers.of(buf), buf.byteLength(), fromRoot, ScheduleCollectives.BCAST_TAG);
        }
    }

    static final class FileMulticast extends FromFile implements CollectiveAlgorithm.Multicast {
        FileMulticast(String file, Schedule schedule) {
            super(file, schedule, Collective.MULTICAST, FileMulticast::new);
        }

        @Override
        public Request multicast(CollChannel ch, Buffer buf, int root, int[] group, boolean blocking) {
            return go(blocking, ch, ScheduleBuffers.of(buf), buf.byteLength(),
                    Multicasts.participants(root, group, ch.size()), ScheduleCollectives.MULTICAST_TAG);
        }
    }

    static final class FileAlltoall extends FromFile implements CollectiveAlgorithm.Alltoall {
        FileAlltoall(String file, Schedule schedule) {
            super(file, schedule, Collective.ALLTOALL, FileAlltoall::new);
        }

        @Override
        public Request alltoall(CollChannel ch, Buffer send, Buffer recv, boolean blocking) {
            return go(blocking, ch, ScheduleBuffers.of(send, recv), send.byteLength() / ch.size(),
                    IntStream.range(0, ch.size()).toArray(), ScheduleCollectives.ALLTOALL_TAG);
        }
    }
}
