package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.mpicompat.OmpiStub;
import io.mpirunj.mpicompat.programs.AllPrograms;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Programs written for Open MPI's Java bindings (package {@code mpi}) under {@code mpirun-j}, as
 * threads at np 1–8 and as processes at np 1, 2, 3, 5 and 8 (a run costs a JVM per rank; np 4 as processes
 * is the Open MPI-compiled app's). Each program checks every element it receives and ends non-zero on the
 * first wrong one.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MpiProgramsTest {
    private static String cp(Class<?> program) {
        return LauncherRun.classpathOf(program);
    }

    private static void assertRuns(LauncherRun run) {
        assertEquals(0, run.exitCode(), run::toString);
    }

    @Test
    void packageMpiIsOnEveryRanksClasspathOnceAndSharedByThreadRanks() {
        String jar = MpiBindingsJar.location().toString();
        assertTrue(MpirunJ.launcherClasspath().contains(jar), MpirunJ.launcherClasspath());
        assertEquals("a" + java.io.File.pathSeparator + jar, MpiBindingsJar.addTo("a"));
        assertEquals(MpiBindingsJar.addTo("a"), MpiBindingsJar.addTo(MpiBindingsJar.addTo("a")));
        assertTrue(RankClassLoader.isShared("mpi.MPI"));
        assertTrue(RankClassLoader.isShared("mpi.Comm"));
    }

    /** Every program in one job per rank count, so a process run costs one JVM start-up per rank. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everyProgramAsProcesses(int np) {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(np), "-cp", cp(AllPrograms.class),
                AllPrograms.class.getName());
        assertRuns(run);
        assertTrue(run.out().contains("all programs passed on " + np + " ranks"), run::toString);
    }

    @Test
    void everyProgramAsThreadsThroughTheLauncherAtNp1To8() {
        for (int np = 1; np <= 8; np++) {
            LauncherRun run = LauncherRun.of("-np", Integer.toString(np), "--threads", "-cp", cp(AllPrograms.class),
                    AllPrograms.class.getName());
            assertRuns(run);
            assertTrue(run.out().contains("all programs passed on " + np + " ranks"), run::toString);
        }
    }

    @Test
    void forcedAlgorithmsApplyToMpiPrograms() {
        assertRuns(LauncherRun.of("-np", "5", "--threads", "--coll", "bcast=opt-tree,allreduce=reduce-bcast", "-cp",
                cp(AllPrograms.class), AllPrograms.class.getName()));
    }

    /** {@code mpirun-j -np 4 -cp app.jar MainClass}: an app compiled against Open MPI's signatures, no native library. */
    @Test
    void anAppCompiledAgainstOpenMpisBindingsRunsUnchanged(@TempDir Path work) throws IOException {
        Path classes = OmpiStub.compileApp(work);
        Path jar = jar(classes, work.resolve("app.jar"));
        LauncherRun processes = LauncherRun.of("-np", "4", "-cp", jar.toString(), OmpiStub.APP_MAIN);
        assertRuns(processes);
        for (int r = 0; r < 4; r++) {
            assertTrue(processes.out().contains("OmpiApp rank " + r + " of 4 ok"), processes::toString);
        }
        assertFalse(processes.err().contains("UnsatisfiedLinkError"), processes::toString);
        LauncherRun threads = LauncherRun.of("-np", "4", "--threads", "-cp", jar.toString(), OmpiStub.APP_MAIN);
        assertRuns(threads);
        assertEquals(4, threads.outLines().stream().filter(l -> l.startsWith("OmpiApp rank ")).count(),
                threads::toString);
    }

    private static Path jar(Path classes, Path jar) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).collect(Collectors.toList());
        }
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            for (Path f : files) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
        return jar;
    }
}
