package io.mpirunj.collectives.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.baseline.CollectiveScenarios;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.ScheduleJson;
import io.mpirunj.collectives.torus.SemAlltoall;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testing.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --coll bcast=file:FILE.json} (and multicast, alltoall): a schedule from a file runs live; a broken file is refused in one line. */
class FileSchedulesTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aScheduleFileRunsLiveFromAnyRoot(@TempDir Path dir) throws Exception {
        // An OPT-tree over 7 ranks rooted at index 3, as mpirun-j schedule --json would write it.
        Schedule opt = MulticastAlgorithms.bcast("opt-tree", 7, 3, 1000, ModelSpec.parse("hold=10,end=40"));
        Path file = dir.resolve("opt.json");
        Files.writeString(file, ScheduleJson.write(opt));
        LocalCluster.run(7, RuntimeConfig.defaults().withForcedCollectives("bcast=file:" + file), world -> {
            for (int root : new int[] {3, 0, 6}) {
                byte[] expected = new byte[1000];
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = (byte) (i * 7 + root);
                }
                byte[] buf = world.rank() == root ? expected.clone() : new byte[1000];
                world.bcast(Buffer.of(buf), root);
                assertArrayEquals(expected, buf, "root " + root + " rank " + world.rank());
                byte[] again = world.rank() == root ? expected.clone() : new byte[1000];
                world.ibcast(Buffer.of(again), root).await();
                assertArrayEquals(expected, again, "ibcast root " + root + " rank " + world.rank());
            }
        });
    }

    /**
     * A schedule that moves the whole buffer does not depend on its size: written at 1 byte (schedule --json's
     * default), it runs at any size; a segmented one only at its own, and says so (a new user's stack trace before).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWholeBufferScheduleRunsAtAnySizeAndASegmentedOneSaysWhichItNeeds(@TempDir Path dir) throws Exception {
        Path whole = dir.resolve("binomial.json");
        Files.writeString(whole, ScheduleJson.write(MulticastAlgorithms.bcast("binomial", 5, 0, 1,
                ModelSpec.parse("hold=10,end=40"))));
        LocalCluster.run(5, RuntimeConfig.defaults().withForcedCollectives("bcast=file:" + whole), world -> {
            for (int n : new int[] {0, 8000, 3}) {
                byte[] expected = new byte[n];
                java.util.Arrays.fill(expected, (byte) (n + 1));
                byte[] buf = world.rank() == 2 ? expected.clone() : new byte[n];
                world.bcast(Buffer.of(buf), 2);
                assertArrayEquals(expected, buf, n + " B, rank " + world.rank());
            }
        });
        Schedule segmented = MulticastAlgorithms.bcast("chain-pipelined", 3, 0, 1 << 20,
                ModelSpec.parse("hold=20+0.02m,end=55+0.07m"));
        assertTrue(segmented.units().size() > 1, segmented.toString());
        Path cut = dir.resolve("pipelined.json");
        Files.writeString(cut, ScheduleJson.write(segmented));
        LocalCluster.run(3, RuntimeConfig.defaults().withForcedCollectives("bcast=file:" + cut), world -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.bcast(Buffer.of(new byte[100]), 0));
            assertTrue(e.getMessage().startsWith("bcast=file:" + cut + " cuts a 1048576-byte buffer into "
                    + segmented.units().size() + " segments (this call has 100 bytes)"), e.getMessage());
        });
    }

    @Test
    void aBrokenFileIsRefusedInOneLineNamingRankAndInstruction(@TempDir Path dir) throws Exception {
        Schedule binomial = MulticastAlgorithms.bcast("binomial", 4, 0, 10, ModelSpec.parse("hold=10,end=40"));
        String json = ScheduleJson.write(binomial);
        // Rank 0's first send (to 2) is dropped: rank 2 waits for a message nobody sends.
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("programs").get(0)).remove(0);
        Path file = dir.resolve("broken.json");
        Files.writeString(file, tree.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "bcast=file:" + file));
        assertTrue(e.getMessage().startsWith(file + ": invalid schedule: unmatched receive: rank 2 #0 "), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());

        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "bcast=file:" + dir.resolve("none.json")));
        assertEquals("cannot read schedule file " + dir.resolve("none.json") + ": no such file or directory",
                missing.getMessage());

        // without its file, refused where --coll is checked, not at the ranks' first call
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "bcast=file"));
        assertEquals("bcast algorithm 'file' needs an argument after a colon: a schedule read from a JSON file "
                + "(mpirun-j schedule --json format): bcast=file:FILE.json", none.getMessage());
        // nothing after the colon: was "cannot read schedule file : Is a directory" (the working directory)
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "bcast=file:"));
        assertEquals("bcast algorithm 'file:' needs an argument after its colon: a schedule read from a JSON file "
                + "(mpirun-j schedule --json format): bcast=file:FILE.json", empty.getMessage());
    }

    /**
     * {@code --coll alltoall=file:FILE.json}: SEM on a 3x3 torus, written with 8-byte blocks, runs at any block size,
     * blocking and not; a bcast file is no all-to-all, nor an all-to-all file a bcast.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anAlltoallScheduleFileRunsLiveAtAnyBlockSize(@TempDir Path dir) throws Exception {
        Path sem = dir.resolve("sem.json");
        Files.writeString(sem, ScheduleJson.write(SemAlltoall.build(3, 8)));
        LocalCluster.run(9, RuntimeConfig.defaults().withForcedCollectives("alltoall=file:" + sem), world -> {
            for (int block : new int[] {1, 0, 257}) {
                long[][] blocks = CollectiveScenarios.alltoallBlocks(world.size(), world.rank(), block);
                long[] recv = new long[world.size() * block];
                java.util.Arrays.fill(recv, -1);
                world.alltoall(Buffer.of(blocks[0]), Buffer.of(recv));
                assertArrayEquals(blocks[1], recv, "rank " + world.rank() + " block " + block);
                java.util.Arrays.fill(recv, -1);
                world.ialltoall(Buffer.of(blocks[0]), Buffer.of(recv)).await();
                assertArrayEquals(blocks[1], recv, "ialltoall: rank " + world.rank() + " block " + block);
            }
        });
        Path binomial = dir.resolve("binomial.json");
        Files.writeString(binomial, ScheduleJson.write(MulticastAlgorithms.bcast("binomial", 9, 0, 1,
                ModelSpec.parse("hold=10,end=40"))));
        IllegalArgumentException notAlltoall = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "alltoall=file:" + binomial));
        assertEquals(binomial + ": a schedule of bcast (expected: alltoall)", notAlltoall.getMessage());
        IllegalArgumentException notBcast = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "bcast=file:" + sem));
        assertEquals(sem + ": a schedule of alltoall (expected: bcast or multicast)", notBcast.getMessage());
        // per-pair sizes (an alltoallv's): a review ran one live at its "bytes" and got misplaced data, status 0
        Path sized = dir.resolve("pairs.json");
        Files.writeString(sized, ScheduleJson.write(io.mpirunj.collectives.builders.AlltoallBuilders.pairwise(2, 8,
                new long[][] {{4, 12}, {12, 4}})));
        IllegalArgumentException perPair = assertThrows(IllegalArgumentException.class,
                () -> new CollectiveRegistry(FileSchedules.algorithms(), "alltoall=file:" + sized));
        assertEquals(sized + ": the schedule gives its (origin, destination) blocks sizes of their own (pairBytes) "
                + "(expected for alltoall: whole (origin, destination) blocks, all of one size)", perPair.getMessage());
    }
}
