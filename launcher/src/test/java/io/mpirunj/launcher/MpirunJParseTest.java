package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.mpirunj.examples.Hello;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpirunJParseTest {
    private static MpirunJ parse(String... args) {
        CommandLine cl = MpirunJ.commandLine();
        cl.parseArgs(args);
        return cl.getCommand();
    }

    @Test
    void argumentsAfterTheMainClassGoToTheProgramUntouched() {
        MpirunJ cmd = parse("-np", "2", "Foo", "-x", "1", "--bar", "-np", "7", "--", "--help");
        assertEquals(2, cmd.size);
        assertEquals("Foo", cmd.mainClass);
        assertEquals(List.of("-x", "1", "--bar", "-np", "7", "--", "--help"), cmd.programArgs);
        assertFalse(cmd.threads);
    }

    @Test
    void everyLauncherOptionIsParsed() {
        MpirunJ cmd = parse("-n", "3", "--threads", "-cp", "a.jar", "--classpath", "b", "--coll",
                "bcast=linear-p2p", "--tag-output", "-v", "--timestamp-output", "--output-filename", "out",
                "--timeout", "5", "--oversubscribe", "-x", "A=1", "-x", "B", "-J", "-Xmx1g", "--jvm-arg=-ea", "Main");
        assertTrue(cmd.timestampOutput);
        assertEquals(java.nio.file.Path.of("out"), cmd.outputDir);
        assertEquals("5", cmd.timeout);
        assertTrue(cmd.oversubscription.oversubscribe);
        assertEquals(List.of("A=1", "B"), cmd.exports);
        assertEquals(List.of("-Xmx1g", "-ea"), cmd.jvm.jvmArgs);
        assertEquals(3, cmd.size);
        assertTrue(cmd.threads);
        assertEquals(List.of("a.jar", "b"), cmd.classpath);
        assertEquals("bcast=linear-p2p", cmd.coll);
        assertTrue(cmd.tagOutput);
        assertTrue(cmd.verbose);
        assertEquals("Main", cmd.mainClass);
        assertTrue(cmd.programArgs.isEmpty());
    }

    /** A JVM option that looks like launcher options (-v clustered with more) is still -J's value, in every form. */
    @Test
    void aJvmOptionThatLooksLikeALauncherOptionIsTheValue() {
        MpirunJ cmd = parse("-np", "2", "-J", "-verbose:gc", "--jvm-arg=-verbose:class", "-J=-version", "-J", "-v",
                "Main");
        assertEquals(List.of("-verbose:gc", "-verbose:class", "-version", "-v"), cmd.jvm.jvmArgs);
        assertFalse(cmd.verbose);
        assertEquals("Main", cmd.mainClass);
        // only -J's: another option's missing value is still an error, not the next option taken as it
        assertThrows(CommandLine.ParameterException.class, () -> parse("--output-filename", "--tag-output", "Main"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("-np", "2", "-x", "-np", "Main"));
    }

    @Test
    void aPlainRunIsParsedByTheRunCommandAloneAsByTheWholeCommandLine() {
        String[] run = {"-n", "3", "--threads", "-cp", "a.jar", "--coll", "bcast=linear-p2p", "-x", "A=1", "-J",
            "-Xmx1g", "Main", "-x", "1", "--bar"};
        assertTrue(MpirunJ.runsWithoutSubcommands(run));
        CommandLine alone = MpirunJ.commandLine(System.getenv(), run);
        assertTrue(alone.getSubcommands().isEmpty());
        CommandLine whole = MpirunJ.commandLine();
        assertEquals(optionNames(whole), optionNames(alone));
        alone.parseArgs(run);
        MpirunJ a = alone.getCommand();
        MpirunJ w = parse(run);
        assertEquals(List.of(w.size, w.threads, w.classpath, w.coll, w.exports, w.jvm.jvmArgs, w.mainClass, w.programArgs),
                List.of(a.size, a.threads, a.classpath, a.coll, a.exports, a.jvm.jvmArgs, a.mainClass, a.programArgs));
        java.util.Set<String> words = new java.util.HashSet<>();
        whole.getSubcommands().forEach((name, sub) -> words.add(name));
        words.addAll(List.of("-h", "--help", "-V", "--version"));
        assertEquals(words, MpirunJ.SUBCOMMAND_WORDS, "every subcommand name and alias, and the help options");
        // anything that may name a subcommand, or asks for the help (which lists them), gets them all
        for (String[] args : List.of(new String[] {}, new String[] {"Main"}, new String[] {"bench", "--quick"},
                new String[] {"-np", "2", "schedule"}, new String[] {"-np", "2", "Main", "trace"},
                new String[] {"--help"}, new String[] {"-np", "2", "-h"}, new String[] {"-V"},
                new String[] {"--verbose", "generate-manpage"})) {
            assertFalse(MpirunJ.runsWithoutSubcommands(args), String.join(" ", args));
            assertFalse(MpirunJ.commandLine(System.getenv(), args).getSubcommands().isEmpty());
        }
    }

    private static List<String> optionNames(CommandLine cl) {
        return cl.getCommandSpec().options().stream().map(o -> String.join("|", o.names())).collect(
                java.util.stream.Collectors.toList());
    }

    @Test
    void noMainClassParsesForListAlgorithms() {
        MpirunJ cmd = parse("--list-algorithms");
        assertTrue(cmd.listAlgorithms);
        assertNull(cmd.mainClass);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-np 2 --bogus io.mpirunj.examples.Hello",
        "-np 0 io.mpirunj.examples.Hello",
        "-np -1 io.mpirunj.examples.Hello",
        "-np two io.mpirunj.examples.Hello",
        "-np 2",
        "io.mpirunj.examples.Hello",
        "-np 2 io.mpirunj.NoSuchClass",
        "-np 2 io.mpirunj.testapps.NoMain",
        "-np 2 io.mpirunj.testapps.InstanceMain",
        "-np 2 -cp /no/such/dir io.mpirunj.examples.Hello",
        "-np 2 --coll bcast=no-such-algorithm io.mpirunj.examples.Hello",
        "-np 2 --coll nonsense io.mpirunj.examples.Hello",
        "-np 2 --coll frobnicate=linear io.mpirunj.examples.Hello",
        "--threads -np 2 --coll bcast=no-such-algorithm io.mpirunj.examples.Hello",
        "--threads -np 2 io.mpirunj.NoSuchClass",
        "-np 2 --timeout 0 io.mpirunj.examples.Hello",
        "-np 2 --timeout soon io.mpirunj.examples.Hello",
        "-np 2 --timeout -3 io.mpirunj.examples.Hello",
        "-np 2 --timeout",
        "-np 2 -x MPIRUNJ_SURELY_UNSET_VARIABLE io.mpirunj.examples.Hello",
        "-np 2 -x =value io.mpirunj.examples.Hello",
        "-np 2 -J Xmx1g io.mpirunj.examples.Hello",
        "--threads -np 2 -J -Xmx1g io.mpirunj.examples.Hello",
        "--threads -np 2 -x MPIRUNJ_SURELY_UNSET_VARIABLE=1 io.mpirunj.examples.Hello",
        "-np 2 -jar /no/such/app.jar",
        "-np 2 -jar pom.xml",
        "-np 2 --output-filename pom.xml io.mpirunj.examples.Hello",
        "-np 2 --fabric blob:3 io.mpirunj.examples.Hello",
        "-np 5 --fabric mesh:2x2 io.mpirunj.examples.Hello",
        "-np 2 --placement identity io.mpirunj.examples.Hello",
        "-np 2 --fabric mesh:4x4 --placement 9/9,0/0 io.mpirunj.examples.Hello",
    })
    void badInputIsOneLineOnStderrExitTwoAndNothingRuns(String argLine) {
        LauncherRun run = LauncherRun.of(argLine.split(" "));
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(1, run.errLines().size(), run::toString);
        assertTrue(run.err().startsWith("mpirun-j: "), run::toString);
        assertEquals("", run.out(), "no rank may have run: " + run);
    }

    @Test
    void aBadMpiexecTimeoutIsBadInputToo() {
        java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put("MPIEXEC_TIMEOUT", "forever");
        LauncherRun run = LauncherRun.of(env, "-np", "2", "io.mpirunj.examples.Hello");
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: MPIEXEC_TIMEOUT=forever (expected: a number of seconds > 0, at most 1000000000)"), run.errLines(),
                run::toString);
        assertEquals("", run.out(), run::toString);
    }

    @Test
    void errorMessagesSayWhatIsWrong() {
        assertTrue(LauncherRun.of("-np", "2", "--bogus", "X").err().contains("'--bogus'"));
        assertTrue(LauncherRun.of("-np", "0", "X").err().contains("-np 0"));
        // a value of the wrong type is worded as the launcher's own checks, not as picocli's "is not an int"
        assertEquals(List.of("mpirun-j: -np abc (expected: a whole number, at most 2147483647) (see mpirun-j --help)"),
                LauncherRun.of("-np", "abc", "X").errLines());
        assertEquals(List.of("mpirun-j: -n 3000000000 (expected: a whole number, at most 2147483647) (see mpirun-j "
                + "--help)"), LauncherRun.of("-n", "3000000000", "X").errLines());
        assertTrue(LauncherRun.of("--np=x", "X").err().startsWith("mpirun-j: --np x (expected: "));
        assertEquals(List.of("mpirun-j: --fabric: topology spec 'blob' not understood (expected: mesh:AxB[xC...], "
                + "torus:AxB[xC...], hypercube:D, star:N or complete:N)"),
                LauncherRun.of("-np", "2", "--fabric", "blob", "X").errLines());
        assertEquals(List.of("mpirun-j: --placement: placement spec 'random:x': bad seed 'x' (expected: random:SEED "
                + "with an integer SEED)"), LauncherRun.of("-np", "2", "--fabric", "mesh:2x2", "--placement", "random:x",
                "X").errLines());
        assertTrue(LauncherRun.of("-np", "2", "io.mpirunj.Nope").err().contains("io.mpirunj.Nope not found"));
        assertTrue(LauncherRun.of("-np", "2", "io.mpirunj.testapps.NoMain").err()
                .contains("public static void main(String[])"));
        assertTrue(LauncherRun.of("-np", "2", "-cp", "/no/such/dir", "X").err().contains("/no/such/dir"));
        String coll = LauncherRun.of("-np", "2", "--coll", "bcast=zzz", "X").err();
        assertTrue(coll.contains("zzz") && coll.contains("expected one of"), coll);
        assertEquals(List.of("mpirun-j: --coll: bcast given twice in 'bcast=binomial,bcast=linear-p2p' (expected: one "
                + "algorithm per operation)"), LauncherRun.of("-np", "2", "--coll", "bcast=binomial,bcast=linear-p2p",
                "X").errLines());
        for (String empty : new String[] {"", " ", ","}) { // as from --coll "$UNSET": refused, not run as no choice
            assertEquals(List.of("mpirun-j: --coll '" + empty + "' names no algorithm (expected: op=algorithm[,"
                    + "op=algorithm...], e.g. bcast=binomial; without --coll the defaults run)"),
                    LauncherRun.of("-np", "2", "--coll", empty, "X").errLines());
        }
        assertTrue(LauncherRun.of("-np", "2", "--timeout", "0", "X").err()
                .contains("--timeout 0 (expected: a number of seconds > 0, at most 1000000000)"));
        assertTrue(LauncherRun.of("-np", "2", "-x", "MPIRUNJ_SURELY_UNSET_VARIABLE", "io.mpirunj.examples.Hello").err()
                .contains("MPIRUNJ_SURELY_UNSET_VARIABLE is not set here"));
        assertEquals(List.of("mpirun-j: -x A B=1: 'A B' is not a variable name (expected: letters, digits and _, not "
                + "starting with a digit)"), LauncherRun.of("-np", "2", "-x", "A B=1", "X").errLines());
        assertTrue(LauncherRun.of("-np", "2", "-x", "1A=2", "X").err().contains("'1A' is not a variable name"));
        assertTrue(LauncherRun.of("-np", "2", "-jar", "/no/such/app.jar").err().contains("/no/such/app.jar"));
    }

    @Test
    void unreadableClasspathEntryIsRejected() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("mpirunj-unreadable");
        try {
            assertTrue(dir.toFile().setReadable(false));
            assumeFalse(java.nio.file.Files.isReadable(dir), "running as root: nothing is unreadable");
            LauncherRun run = LauncherRun.of("-np", "2", "-cp", dir.toString(), Hello.class.getName());
            assertEquals(2, run.exitCode(), run::toString);
            assertTrue(run.err().contains("not readable"), run::toString);
        } finally {
            dir.toFile().setReadable(true);
            java.nio.file.Files.delete(dir);
        }
    }

    @Test
    void theJobsFabricAndPlacementReachEveryRank() {
        for (String mode : new String[] {"--threads", "-v"}) {
            LauncherRun run = LauncherRun.of(mode, "-np", "2", "--fabric", "mesh:4x4", "--placement", "3/2,1/1",
                    "io.mpirunj.testapps.FabricDump");
            assertEquals(0, run.exitCode(), run::toString);
            assertTrue(run.out().contains("rank 0 fabric=mesh:4x4 placement=3/2,1/1"), run::toString);
            assertTrue(run.out().contains("rank 1 fabric=mesh:4x4 placement=3/2,1/1"), run::toString);
        }
        LauncherRun none = LauncherRun.of("--threads", "-np", "1", "io.mpirunj.testapps.FabricDump");
        assertTrue(none.out().contains("rank 0 fabric=null placement=null"), none::toString);
    }

    /**
     * {@code --placement} places the ranks on the {@code MPIRUNJ_FABRIC} of the environment or of {@code -x}, as
     * {@code --fabric} takes an exported {@code MPIRUNJ_PLACEMENT} (-x only with processes: ranks as threads share the
     * launcher's environment): was "--placement needs --fabric".
     */
    @Test
    void aPlacementOptionPlacesTheRanksOnTheEnvironmentsFabric() {
        java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put("MPIRUNJ_FABRIC", "mesh:4x4");
        for (String mode : new String[] {"--threads", "-v"}) {
            LauncherRun run = LauncherRun.of(env, mode, "-np", "2", "--placement", "3/2,1/1",
                    "io.mpirunj.testapps.FabricDump");
            assertEquals(0, run.exitCode(), run::toString);
            assertTrue(run.out().contains("rank 0 fabric=mesh:4x4 placement=3/2,1/1"), run::toString);
            assertTrue(run.out().contains("rank 1 fabric=mesh:4x4 placement=3/2,1/1"), run::toString);
        }
        LauncherRun exported = LauncherRun.of("-np", "2", "-x", "MPIRUNJ_FABRIC=mesh:4x4", "--placement",
                "3/2,1/1", "io.mpirunj.testapps.FabricDump");
        assertEquals(0, exported.exitCode(), exported::toString);
        assertTrue(exported.out().contains("rank 1 fabric=mesh:4x4 placement=3/2,1/1"), exported::toString);
        LauncherRun tooFew = LauncherRun.of(env, "--threads", "-np", "2", "--placement", "3/2",
                "io.mpirunj.testapps.FabricDump");
        assertEquals(2, tooFew.exitCode(), tooFew::toString);
        assertEquals(List.of("mpirun-j: --placement: placement spec '3/2' lists 1 nodes (expected: one per rank, 2)"),
                tooFew.errLines(), tooFew::toString);
        env.put("MPIRUNJ_FABRIC", "mesh:4x");
        LauncherRun badFabric = LauncherRun.of(env, "--threads", "-np", "2", "--placement", "3/2,1/1",
                "io.mpirunj.testapps.FabricDump");
        assertEquals(2, badFabric.exitCode(), badFabric::toString);
        assertEquals(1, badFabric.errLines().size(), badFabric::toString);
        assertTrue(badFabric.err().startsWith("mpirun-j: MPIRUNJ_FABRIC=mesh:4x: "), badFabric::toString);
    }

    @Test
    void srunRankOutsideAGoodSlurmStepIsOneLineExitTwo() {
        LauncherRun outside = LauncherRun.of(java.util.Map.of(), "--srun-rank", "io.mpirunj.examples.Hello");
        assertEquals(2, outside.exitCode(), outside::toString);
        assertEquals(List.of("mpirun-j: --srun-rank: SLURM_PROCID is not set: this is not a task of a Slurm job step "
                + "(expected: srun -n N mpirun-j --srun-rank MainClass)"), outside.errLines());

        java.util.Map<String, String> step = new java.util.HashMap<>(java.util.Map.of("SLURM_PROCID", "0",
                "SLURM_NTASKS", "4", "SLURM_STEP_NODELIST", "vm", "SLURM_JOB_ID", "7", "SLURM_STEP_ID", "0"));
        LauncherRun noPorts = LauncherRun.of(step, "--srun-rank", "io.mpirunj.examples.Hello");
        assertEquals(2, noPorts.exitCode(), noPorts::toString);
        assertTrue(noPorts.err().contains("SLURM_STEP_RESV_PORTS is not set"), noPorts::toString);

        step.put("SLURM_STEP_RESV_PORTS", "20000-20003");
        for (String[] args : new String[][] {
            {"--srun-rank", "-np", "3", "io.mpirunj.examples.Hello"},
            {"--srun-rank", "--threads", "io.mpirunj.examples.Hello"},
            {"--srun-rank", "-J", "-Xmx1g", "io.mpirunj.examples.Hello"},
            {"--srun-rank", "io.mpirunj.NoSuchClass"},
        }) {
            LauncherRun bad = LauncherRun.of(step, args);
            assertEquals(2, bad.exitCode(), bad::toString);
            assertEquals(1, bad.errLines().size(), bad::toString);
            assertEquals("", bad.out(), bad::toString);
        }
    }

    @Test
    void insideASlurmAllocationTheRanksGoThroughSrun() {
        JobSpec spec = new JobSpec(6, "com.example.App", List.of("a1"), List.of(), null,
                new JobSpec.OutputOptions(true, false, null), false, java.util.Map.of(), List.of("-Xmx1g"), 0, true);
        List<String> cmd = SlurmLaunch.srunCommand(spec, "/launcher.jar", java.util.Map.of("MPIRUNJ_SRUN_ARGS", "-K1 --time=5"));
        assertEquals(List.of("srun", "--ntasks=6", "--export=ALL", "-K1", "--time=5", "--label"), cmd.subList(0, 6));
        // srun starts the ranks with the launcher's rank JVM options (its tests set some) before -J's
        List<String> rank = new java.util.ArrayList<>(List.of("-Xshare:auto"));
        rank.addAll(ProcessJob.RANK_STARTUP_JIT_OPTIONS);
        rank.add(ProcessJob.rankLogLevel(false)); // the launcher's level, before the options that may set another
        rank.addAll(ProcessJob.rankJvmOptions());
        rank.addAll(List.of("-Xmx1g", "-cp", "/launcher.jar", RankMain.class.getName(), "com.example.App", "a1"));
        assertEquals(rank, cmd.subList(7, cmd.size()));
        assertTrue(SlurmLaunch.insideAllocation(java.util.Map.of("SLURM_JOB_ID", "5", "SLURM_NTASKS", "4")));
        assertFalse(SlurmLaunch.insideAllocation(java.util.Map.of("SLURM_JOB_ID", "5", "SLURM_STEP_ID", "0")));
        assertFalse(SlurmLaunch.insideAllocation(java.util.Map.of("SLURM_JOB_ID", "5", "MPIRUNJ_SLURM", "off")));
        assertEquals(4, SlurmLaunch.allocationTasks(java.util.Map.of("SLURM_NTASKS", "4")));
    }

    @Test
    void helpShowsUsageAndExamples() {
        LauncherRun run = LauncherRun.of("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("Usage: mpirun-j"), run::toString);
        assertTrue(run.out().contains("-np"), run::toString);
        assertTrue(run.out().contains("Examples:"), run::toString);
        assertTrue(run.out().contains("--threads"), run::toString);
    }

    @Test
    void versionNamesTheBuild() {
        LauncherRun run = LauncherRun.of("--version");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().startsWith("mpirun-j 0."), run::toString);
    }

    @Test
    void listAlgorithmsPrintsTheRegistry() {
        LauncherRun run = LauncherRun.of("--list-algorithms");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("bcast"), run::toString);
        assertTrue(run.out().contains("*"), run::toString);
    }

    /** A main class named without its package, or with a wrong one, is found by its simple name in jars and folders. */
    @Test
    void aMainClassWithoutItsPackageSuggestsTheClassesOfThatName(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        String entry = "io/mpirunj/testapps/Thrower.class";
        byte[] bytes;
        try (java.io.InputStream in = getClass().getClassLoader().getResourceAsStream(entry)) {
            bytes = in.readAllBytes();
        }
        java.nio.file.Path jar = dir.resolve("apps.jar");
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry(entry));
            out.write(bytes);
        }
        java.nio.file.Path classes = dir.resolve("classes");
        java.nio.file.Files.createDirectories(classes.resolve("io/mpirunj/testapps"));
        java.nio.file.Files.write(classes.resolve(entry), bytes);
        for (String cp : List.of(jar.toString(), classes.toString())) {
            for (String main : List.of("Thrower", "com.example.Thrower")) {
                assertEquals(List.of("mpirun-j: main class " + main + " not found on the classpath (" + cp
                        + "); did you mean io.mpirunj.testapps.Thrower?"),
                        LauncherRun.of("-np", "2", "-cp", cp, main).errLines());
            }
        }
        // a class file's name, and a java command line (a new user's trial: no hint)
        String ring = String.join("", LauncherRun.of("-np", "2", "-cp", dir.toString(), "Ring.class").errLines());
        assertTrue(ring.startsWith("mpirun-j: main class Ring.class not found on the classpath (")
                && ring.endsWith("); a class is named without .class: did you mean Ring?"), ring);
        String java = String.join("", LauncherRun.of("-np", "2", "-cp", dir.toString(), "java", "-cp", ".", "Ring")
                .errLines());
        assertTrue(java.endsWith("); mpirun-j starts the JVMs itself: give the main class and its options, not a java "
                + "command (e.g. mpirun-j -np 2 -cp . Main)"), java);
        // a package root's parent: a folder below it is no package, and no class loads by that name
        assertEquals(List.of("mpirun-j: main class Thrower not found on the classpath (" + dir + ")"),
                LauncherRun.of("-np", "2", "-cp", dir.toString(), "Thrower").errLines());
    }

    @Test
    void userClasspathWildcardExpandsToJars() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("mpirunj-cp");
        try {
            java.nio.file.Files.createFile(dir.resolve("b.jar"));
            java.nio.file.Files.createFile(dir.resolve("a.jar"));
            java.nio.file.Files.createFile(dir.resolve("notes.txt"));
            List<java.nio.file.Path> cp = UserClasspath.parse(dir + "/*");
            assertEquals(List.of(dir.resolve("a.jar").toAbsolutePath(), dir.resolve("b.jar").toAbsolutePath()), cp);
        } finally {
            try (var s = java.nio.file.Files.list(dir)) {
                for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) s::iterator) {
                    java.nio.file.Files.delete(p);
                }
            }
            java.nio.file.Files.delete(dir);
        }
    }

    @ParameterizedTest(name = "{0} shared: {1}")
    @CsvSource({"io.mpirunj.Comm, true", "io.mpirunj.runtime.RankContext, true", "java.lang.String, true",
        "io.mpirunj.examples.Hello, false", "com.example.App, false"})
    void runtimeClassesAreSharedAndUserClassesAreNot(String className, boolean shared) {
        assertEquals(shared, RankClassLoader.isShared(className));
    }

    /**
     * Processes on TCP without --model: the built-in TCP model, with cpus=C and the fitted wake only when the ranks
     * outnumber C cores.
     */
    @Test
    void processesOnTcpGetTheBuiltInModelWithTheCoresTheyShare() {
        assertEquals(io.mpirunj.collectives.runner.ModelProvider.TCP_SPEC + ",cpus=2,wake=39.5,rndv=2097152", io.mpirunj.collectives.runner.ModelProvider.tcpSpec(8, 2));
        assertEquals(io.mpirunj.collectives.runner.ModelProvider.TCP_SPEC + ",rndv=2097152", io.mpirunj.collectives.runner.ModelProvider.tcpSpec(2, 2));
        assertEquals(io.mpirunj.collectives.runner.ModelProvider.TCP_SPEC + ",rndv=2097152", io.mpirunj.collectives.runner.ModelProvider.tcpSpec(8, 0)); // several hosts
        io.mpirunj.fabric.model.ModelSpec.parse(io.mpirunj.collectives.runner.ModelProvider.tcpSpec(8, 2)); // a spec every rank can parse
    }
}
