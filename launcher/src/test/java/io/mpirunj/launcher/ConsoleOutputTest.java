package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.BinaryOut;
import io.mpirunj.testapps.Chatter;
import io.mpirunj.testapps.Prompter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The launcher's stdout as a console: whoever reads it may stop reading, or answer a prompt. */
class ConsoleOutputTest {
    /** A launcher JVM of its own (its stdout a pipe of this test's) running {@code program} on {@code np} ranks. */
    private static List<String> launcherCommand(String mode, int np, Class<?> program) {
        List<String> cmd = new ArrayList<>(List.of(ProcessJob.javaExecutable(), "-cp",
                System.getProperty("java.class.path"), MpirunJ.class.getName(), "-np", Integer.toString(np)));
        if (mode.equals("threads")) {
            cmd.add("--threads");
        }
        cmd.add(program.getName());
        return cmd;
    }

    /**
     * A job whose stdout nobody reads any more ({@code mpirun-j ... | head -2}) stops with 141, as a shell reports a
     * writer whose pipe's reader ended, and says why on stderr; it ran on for ever with its output thrown away.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"processes", "threads"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking reads
    void aJobWhoseStdoutIsClosedStops(String mode) throws Exception {
        Process launcher = new ProcessBuilder(launcherCommand(mode, 2, Chatter.class)).start();
        try {
            launcher.getOutputStream().close();
            BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                    StandardCharsets.UTF_8));
            assertTrue(out.readLine().startsWith("line "));
            out.close(); // as head does once it has its lines
            String err = new String(launcher.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(ExitCodes.STDOUT_CLOSED, launcher.waitFor(), err);
            assertTrue(err.contains("mpirun-j: " + RankOutput.CONSOLE_CLOSED + "; the job ends with status 141"), err);
        } finally {
            launcher.destroyForcibly();
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * What a rank writes to stdout reaches the launcher's stdout byte for byte: binary data (every byte value,
     * invalid UTF-8, lines past the 1 MiB bound), with or without a final newline (none is added off a terminal), as
     * from Open MPI's mpirun. Bytes that were not text in the platform's charset were replaced.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"processes, closed", "processes, open", "threads, closed", "threads, open"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking reads
    void binaryOutputPassesByteForByte(String mode, String ending) throws Exception {
        int size = 3 << 20;
        List<String> cmd = launcherCommand(mode, 1, BinaryOut.class);
        cmd.addAll(List.of("7", Integer.toString(size), ending));
        Process launcher = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            launcher.getOutputStream().close();
            byte[] got = launcher.getInputStream().readAllBytes();
            assertEquals(0, launcher.waitFor());
            assertBytes(BinaryOut.blob(7, size, ending.equals("open")), got);
        } finally {
            launcher.destroyForcibly();
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** {@code --output-filename}: each rank's file holds what it wrote, byte for byte (ranks as processes). */
    @org.junit.jupiter.api.Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void binaryOutputInFilesPassesByteForByte() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("mpirunj-binary");
        try {
            LauncherRun run = LauncherRun.of("-np", "2", "--output-filename", dir.toString(), BinaryOut.class.getName(),
                    "5", Integer.toString(1 << 20), "open");
            assertEquals(0, run.exitCode(), run::toString);
            for (int r = 0; r < 2; r++) {
                assertBytes(BinaryOut.blob(5, 1 << 20, true), java.nio.file.Files.readAllBytes(RankOutput.fileOf(dir, r)));
            }
        } finally {
            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void assertBytes(byte[] expected, byte[] got) {
        assertEquals(expected.length, got.length);
        assertTrue(java.util.Arrays.equals(expected, got), "first difference at byte "
                + java.util.Arrays.mismatch(expected, got));
    }

    /**
     * A prompt without a newline reaches the console while its rank waits for the answer (it was held until the
     * answer's newline came, so the user never saw the question).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"processes", "threads"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking reads
    void aPromptIsSeenBeforeItsAnswer(String mode) throws Exception {
        Process launcher = new ProcessBuilder(launcherCommand(mode, 1, Prompter.class))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            java.io.InputStream out = launcher.getInputStream();
            StringBuilder seen = new StringBuilder();
            while (!seen.toString().endsWith("Enter n: ")) { // the answer goes only once the question is seen
                int c = out.read();
                assertTrue(c >= 0, "the job ended first: " + seen);
                seen.append((char) c);
            }
            launcher.getOutputStream().write("42\n".getBytes(StandardCharsets.UTF_8));
            launcher.getOutputStream().close();
            assertEquals("Enter n: got 42\n", seen + new String(out.readAllBytes(), StandardCharsets.UTF_8));
            assertEquals(0, launcher.waitFor());
        } finally {
            launcher.destroyForcibly();
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }
}
