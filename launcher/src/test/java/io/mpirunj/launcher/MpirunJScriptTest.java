package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code mpirun-j} script's choice of the launcher JVM's compilers: the client compiler alone for a
 * run with the ranks as processes, both with --threads, --srun-rank, --fabric... or a subcommand; decided
 * by the launcher's options only, never by the program's arguments.
 */
class MpirunJScriptTest {
    private static final Path SCRIPT = Path.of("..", "mpirun-j");
    /** The client compiler alone, with the ranks' start-up thresholds (one list for both). */
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1 " + String.join(" ", ProcessJob.STARTUP_JIT_OPTIONS);

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theProgramsOwnArgumentsNeverChooseTheLaunchersCompilers() throws Exception {
        assertEquals(C1_ONLY, jitOptions("-np", "2", "Hello"));
        assertEquals("", jitOptions("-np", "2", "--threads", "Hello"));
        assertEquals("", jitOptions("-np", "16", "--fabric", "torus:4x4", "Hello"));
        assertEquals("", jitOptions("--srun-rank", "Hello"));
        assertEquals("", jitOptions("bench", "osu_bw", "--threads"));
        // the program's arguments, after its main class, source file or --
        assertEquals(C1_ONLY, jitOptions("-np", "2", "Hello", "--threads"));
        assertEquals(C1_ONLY, jitOptions("-np", "2", "-J", "-Xmx1g", "App.java", "--fabric", "mesh:2x2"));
        assertEquals(C1_ONLY, jitOptions("-np", "2", "-cp", "a.jar", "App", "--srun-rank"));
        assertEquals(C1_ONLY, jitOptions("-np", "2", "--", "App", "--threads"));
        // an option's value is not the program, nor an option
        assertEquals("", jitOptions("--timeout", "5", "-x", "A=1", "-np", "2", "--threads", "App"));
        assertEquals(C1_ONLY, jitOptions("-np", "2", "-J", "--threads", "App"));
        // with -jar the options go on until the program's first argument (the launcher's help says so)
        assertEquals("", jitOptions("-np", "2", "-jar", "app.jar", "--threads"));
        assertEquals(C1_ONLY, jitOptions("-np", "2", "-jar", "app.jar", "x", "--threads"));
    }

    @Test
    void theScriptKnowsWhichOptionsTakeAValue() throws IOException {
        Set<String> launcher = new TreeSet<>();
        for (OptionSpec o : MpirunJ.commandLine().getCommandSpec().options()) {
            if (o.arity().max() > 0) {
                launcher.addAll(Arrays.asList(o.names()));
            }
        }
        String script = Files.readString(SCRIPT, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?m)^value_options=\"([^\"]*)\"").matcher(script);
        assertEquals(true, m.find(), "value_options in " + SCRIPT);
        Set<String> listed = new TreeSet<>(Arrays.asList(m.group(1).replace("\\\n", " ").trim().split("\\s+")));
        assertEquals(launcher, listed);
    }

    /** What the script's launcher_jit_options prints for {@code args} (sourcing the script defines it only). */
    private static String jitOptions(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "source \"$1\"; shift; launcher_jit_options \"$@\"",
                "bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
