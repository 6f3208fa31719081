package io.mpirunj.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Checks {@code -J} options before any rank starts: one {@code java OPTIONS -version} run. A bad
 * option (e.g. {@code -Xmx1q}) is then one usage error, not N rank JVMs each printing the JVM's
 * complaint.
 */
final class JvmOptions {
    /** The check's own limit; a JVM that cannot even print its version in this time is not checked. */
    static final long CHECK_TIMEOUT_MS = 30_000;

    private JvmOptions() {
    }

    /** Throws if {@code java} refuses {@code options}. System properties alone need no JVM to check. */
    static void check(String java, List<String> options) throws UsageException {
        if (options.stream().allMatch(o -> o.startsWith("-D"))) {
            return;
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(options);
        cmd.add("-version");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UsageException("-J " + String.join(" ", options) + ": cannot run " + java + " to check them: "
                    + e.getMessage());
        }
        try (InputStream in = p.getInputStream()) {
            p.getOutputStream().close();
            String text = new String(in.readAllBytes(), Charset.defaultCharset());
            if (!p.waitFor(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return;
            }
            if (p.exitValue() != 0) {
                throw new UsageException("-J/--jvm-arg " + String.join(" ", options) + ": the JVM refuses it: "
                        + firstComplaint(text));
            }
        } catch (IOException e) {
            p.destroyForcibly();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The JVM's first line that says what is wrong (not its generic "could not create" lines). */
    static String firstComplaint(String text) {
        String fallback = null;
        for (String line : text.split("\\R")) {
            String l = line.strip();
            if (l.isEmpty()) {
                continue;
            }
            if (fallback == null) {
                fallback = l;
            }
            if (!l.startsWith("Error: Could not create the Java Virtual Machine")
                    && !l.startsWith("Error: A fatal exception has occurred")
                    && !l.startsWith("Error occurred during initialization of VM")) { // -Xmx1k: the reason follows
                return l;
            }
        }
        return fallback == null ? "(no message)" : fallback;
    }
}
