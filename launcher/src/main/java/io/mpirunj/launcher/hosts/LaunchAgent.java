package io.mpirunj.launcher.hosts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the launcher starts a rank on another host: the local command whose process stands for the
 * remote rank (its exit status is the rank's, its output the rank's output). The rank's environment
 * travels on the command line through {@code env}, so the remote side needs only {@code env} and
 * {@code java}.
 *
 * <p>{@link #parse} makes one from the {@code --launch-agent} words, e.g. {@code ssh} (the
 * default), {@code "ssh -p 2222"}, {@code "docker exec"} or {@code "kubectl exec {host} --"}. The host
 * goes where {@code {host}} is written, else after the words. An agent whose program is {@code ssh}
 * or {@code rsh} hands the remote side one shell command line, so its words are quoted for
 * {@code sh}; any other agent passes them as separate arguments.
 *
 * <p>Other resource managers (e.g. Slurm's {@code srun}) plug in by implementing this interface.
 */
public interface LaunchAgent {
    /** The {@code --launch-agent} default, as for {@code mpirun}. */
    String DEFAULT = "ssh";

    /** The local command that runs {@code argv} on {@code host} with {@code env} added to its environment. */
    List<String> command(String host, Map<String, String> env, List<String> argv);

    /** What it is, for messages. */
    String describe();

    /** Parses {@code --launch-agent} words (split on white space). */
    static LaunchAgent parse(String spec) {
        List<String> words = List.of(spec.strip().split("\\s+"));
        if (spec.isBlank()) {
            throw new IllegalArgumentException("--launch-agent is empty (expected: a command, e.g. ssh or "
                    + "\"docker exec\")");
        }
        String program = Path.of(words.get(0)).getFileName().toString();
        boolean viaShell = program.equals("ssh") || program.equals("rsh");
        return new CommandAgent(words, viaShell);
    }

    /** An agent that is a command line with the host in it. */
    record CommandAgent(List<String> words, boolean viaShell) implements LaunchAgent {
        public CommandAgent {
            words = List.copyOf(words);
        }

        @Override
        public List<String> command(String host, Map<String, String> env, List<String> argv) {
            List<String> remote = new ArrayList<>();
            if (!env.isEmpty()) {
                remote.add("env");
                env.forEach((k, v) -> remote.add(k + "=" + v));
            }
            remote.addAll(argv);
            List<String> cmd = new ArrayList<>();
            boolean placed = false;
            for (String w : words) {
                if (w.contains("{host}")) {
                    cmd.add(w.replace("{host}", host));
                    placed = true;
                } else {
                    cmd.add(w);
                }
            }
            if (!placed) {
                cmd.add(host);
            }
            if (viaShell) {
                StringBuilder line = new StringBuilder();
                for (String w : remote) {
                    line.append(line.length() == 0 ? "" : " ").append(shellQuote(w));
                }
                cmd.add(line.toString());
            } else {
                cmd.addAll(remote);
            }
            return cmd;
        }

        @Override
        public String describe() {
            return String.join(" ", words);
        }
    }

    /** {@code s} as one word for {@code sh}. */
    static String shellQuote(String s) {
        if (!s.isEmpty() && s.matches("[A-Za-z0-9_@%+=:,./-]+")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
