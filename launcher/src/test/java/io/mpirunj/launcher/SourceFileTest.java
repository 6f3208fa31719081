package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.EchoArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code mpirun-j -np 4 Pi.java}: a single source file compiled once in the launcher, run as processes and threads. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SourceFileTest {
    /** The README's program, verbatim. */
    static final String PI = """
            import io.mpirunj.*;

            public class Pi {
                public static void main(String[] args) {
                    Comm world = Mpi.init(args);
                    int n = 1_000_000, rank = world.rank(), size = world.size();
                    double[] local = {0}, total = {0};
                    for (int i = rank; i < n; i += size) {
                        double x = (i + 0.5) / n;
                        local[0] += 4 / (1 + x * x) / n;
                    }
                    world.reduce(Buffer.of(local), Buffer.of(total), Op.SUM, 0);
                    if (rank == 0) System.out.println("pi ~ " + total[0]);
                    Mpi.finish();
                }
            }
            """;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @ParameterizedTest(name = "threads={0}")
    @ValueSource(booleans = {false, true})
    void piRunsAsFourRanks(boolean threads) throws IOException {
        Path pi = write("Pi.java", PI);
        LauncherRun run = threads ? LauncherRun.of("-np", "4", "--threads", pi.toString())
                : LauncherRun.of("-np", "4", pi.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("", run.err(), run::toString);
        assertEquals(1, run.outLines().size(), run::toString);
        String line = run.outLines().get(0);
        assertTrue(line.startsWith("pi ~ "), run::toString);
        // the midpoint rule with n = 10^6 is within 1e-12 of pi; the four partial sums differ from one sum by rounding only
        assertEquals(Math.PI, Double.parseDouble(line.substring("pi ~ ".length())), 1e-10, run::toString);
    }

    @Test
    void aCompileErrorIsPrintedOnceAsJavacPrintsItAndNoRankStarts() throws IOException {
        Path broken = write("Broken.java", """
                import io.mpirunj.*;

                public class Broken {
                    public static void main(String[] args) {
                        System.out.println("rank started");
                        Comm world = Mpi.init(args)
                        Mpi.finish();
                    }
                }
                """);
        LauncherRun run = LauncherRun.of("-np", "4", broken.toString());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals("", run.out(), run::toString);
        List<String> err = run.errLines();
        assertEquals(broken + ":6: error: ';' expected", err.get(0), run::toString);
        assertEquals("        Comm world = Mpi.init(args)", err.get(1), run::toString);
        assertEquals("1 error", err.get(3), run::toString);
        assertEquals("mpirun-j: " + broken + " did not compile (see above); no rank was started", err.get(4),
                run::toString);
        assertEquals(5, err.size(), run::toString);
    }

    @Test
    void aTypeErrorAgainstTheApiIsReportedWithItsLine() throws IOException {
        Path wrong = write("Wrong.java", """
                import io.mpirunj.*;

                public class Wrong {
                    public static void main(String[] args) {
                        Comm world = Mpi.init(args);
                        String rank = world.rank();
                    }
                }
                """);
        LauncherRun run = LauncherRun.of("-np", "2", "--threads", wrong.toString());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith(wrong + ":6: error: incompatible types: int cannot be converted to String"),
                run::toString);
        assertEquals("", run.out(), run::toString);
    }

    @Test
    void theFirstClassRunsWithArgumentsAndMayUseTheClasspath() throws IOException {
        Path multi = write("Multi.java", """
                public class Multi {
                    public static void main(String[] args) {
                        io.mpirunj.testapps.EchoArgs.main(Helper.twice(args));
                    }
                }

                class Helper {
                    static String[] twice(String[] args) {
                        return new String[] {args[0], args[0]};
                    }
                }
                """);
        String testApps = LauncherRun.classpathOf(EchoArgs.class);
        LauncherRun run = LauncherRun.of("-np", "2", "--threads", "-cp", testApps, multi.toString(), "x y");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(List.of("rank 0 args x y|x y", "rank 1 args x y|x y"), run.outLines().stream().sorted().toList(),
                run::toString);
    }

    /** Programs written for Open MPI's Java bindings run from source too (package mpi is on every rank's classpath). */
    @Test
    void aProgramOfOpenMpisJavaApiCompilesAgainstOurBindings() throws IOException {
        Path ring = write("OmpiHello.java", """
                import mpi.MPI;
                import mpi.MPIException;

                public class OmpiHello {
                    public static void main(String[] args) throws MPIException {
                        MPI.Init(args);
                        int[] sum = new int[1];
                        MPI.COMM_WORLD.allReduce(new int[] {MPI.COMM_WORLD.getRank() + 1}, sum, 1, MPI.INT, MPI.SUM);
                        System.out.println("rank " + MPI.COMM_WORLD.getRank() + " sum " + sum[0]);
                        MPI.Finalize();
                    }
                }
                """);
        LauncherRun run = LauncherRun.of("-np", "3", "--threads", ring.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(List.of("rank 0 sum 6", "rank 1 sum 6", "rank 2 sum 6"), run.outLines().stream().sorted().toList(),
                run::toString);
    }

    @Test
    void aMissingSourceFileOrOneWithoutMainIsOneLine() throws IOException {
        LauncherRun missing = LauncherRun.of("-np", "2", dir.resolve("Nope.java").toString());
        assertEquals(UsageException.EXIT_CODE, missing.exitCode(), missing::toString);
        assertEquals(List.of("mpirun-j: source file " + dir.resolve("Nope.java") + " does not exist"),
                missing.errLines());

        Path noMain = write("NoMain.java", "class First { }\nclass Second { public static void main(String[] a) { } }\n");
        LauncherRun run = LauncherRun.of("-np", "2", noMain.toString());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: main class First has no method public static void main(String[])"),
                run.errLines());
    }

    @Test
    void theCompiledClassesAreDeletedWhenTheJobEnds() throws IOException {
        Path pi = write("Pi.java", PI);
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        List<Path> before = sourceDirs(tmp);
        LauncherRun run = LauncherRun.of("-np", "1", "--threads", pi.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(before, sourceDirs(tmp));
        assertFalse(Files.exists(dir.resolve("Pi.class")), "nothing is written next to the source");
    }

    private static List<Path> sourceDirs(Path tmp) throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith("mpirun-j-source-")).sorted().toList();
        }
    }
}
