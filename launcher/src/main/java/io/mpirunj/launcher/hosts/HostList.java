package io.mpirunj.launcher.hosts;

import io.mpirunj.io.IoErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the hosts a job runs on, in the two notations {@code mpirun} users know:
 *
 * <ul>
 *   <li>a hostfile ({@code --hostfile FILE}): one host per line, {@code host}, {@code host slots=N}
 *       (Open MPI; {@code max_slots=M} is accepted and ignored) or {@code host:N} (MPICH), with
 *       {@code #} comments and blank lines;
 *   <li>a list ({@code --host a,b:2}): hosts separated by commas, each with an optional {@code :N}.
 * </ul>
 *
 * A host named twice gets the sum of its slots, in the place of its first mention. A host without
 * a count has one slot. Errors throw {@link IllegalArgumentException} whose message names the file
 * and line.
 */
public final class HostList {
    /** Open MPI's variable for the hostfile a resource manager hands over (e.g. Kubernetes' MPI Operator). */
    public static final String OMPI_HOSTFILE_ENV = "OMPI_MCA_orte_default_hostfile";
    /** MPICH/Hydra's variable for the same. */
    public static final String HYDRA_HOSTFILE_ENV = "HYDRA_HOST_FILE";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+|\\[[0-9A-Fa-f:.]+\\]");
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");

    private HostList() {
    }

    /** Reads {@code file}. */
    public static List<Host> readHostfile(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read the hostfile: " + IoErrors.reason(e, file));
        }
        return parseHostfile(text, file.toString());
    }

    /** Parses hostfile {@code text}; {@code source} names it in errors. */
    public static List<Host> parseHostfile(String text, String source) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = source + " line " + (i + 1);
            String[] words = line.split("\\s+");
            Host host = hostWithCount(words[0], where);
            int n = host.slots();
            boolean explicitCount = words[0].lastIndexOf(':') > words[0].lastIndexOf(']');
            for (int w = 1; w < words.length; w++) {
                String word = words[w];
                int eq = word.indexOf('=');
                String key = eq < 0 ? word : word.substring(0, eq);
                String value = eq < 0 ? "" : word.substring(eq + 1);
                switch (key) {
                    case "slots", "cpu", "cpus" -> {
                        if (explicitCount) {
                            throw new IllegalArgumentException(where + ": '" + line + "' gives the count twice "
                                    + "(expected: host slots=N or host:N)");
                        }
                        n = count(value, key, where);
                        explicitCount = true;
                    }
                    case "max_slots", "max-slots" -> count(value, key, where); // checked, not used
                    default -> throw new IllegalArgumentException(where + ": unknown '" + word
                            + "' (expected: host, host slots=N or host:N)");
                }
            }
            slots.merge(host.name(), n, Integer::sum);
        }
        if (slots.isEmpty()) {
            throw new IllegalArgumentException(source + ": no hosts in the hostfile");
        }
        List<Host> hosts = new ArrayList<>();
        slots.forEach((name, n) -> hosts.add(new Host(name, n)));
        return hosts;
    }

    /** Parses {@code --host a,b:2}. */
    public static List<Host> parseHostOption(String spec) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (String part : spec.split(",", -1)) {
            Host h = hostWithCount(part.strip(), "--host " + spec);
            slots.merge(h.name(), h.slots(), Integer::sum);
        }
        List<Host> hosts = new ArrayList<>();
        slots.forEach((name, n) -> hosts.add(new Host(name, n)));
        return hosts;
    }

    /**
     * The hostfile a resource manager handed over through {@link #OMPI_HOSTFILE_ENV} or
     * {@link #HYDRA_HOSTFILE_ENV} (in that order), or null if neither is set.
     */
    public static Path orchestratorHostfile(Map<String, String> env) {
        for (String name : List.of(OMPI_HOSTFILE_ENV, HYDRA_HOSTFILE_ENV)) {
            String v = env.get(name);
            if (v != null && !v.isBlank()) {
                return Path.of(v.strip());
            }
        }
        return null;
    }

    /** {@code name} or {@code name:N}. */
    private static Host hostWithCount(String word, String where) {
        String name = word;
        int n = 1;
        int colon = word.lastIndexOf(':');
        if (colon >= 0 && colon > word.lastIndexOf(']') && !isBareIpv6(word)) {
            name = word.substring(0, colon);
            n = count(word.substring(colon + 1), "slots", where);
        }
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException(where + ": bad host name '" + name + "' (expected: a name or an "
                    + "address, then optionally :N or slots=N)");
        }
        return new Host(name, n);
    }

    private static boolean isBareIpv6(String word) {
        return word.indexOf(':') != word.lastIndexOf(':') && !word.startsWith("[");
    }

    private static int count(String value, String key, String where) {
        if (!COUNT.matcher(value).matches() || Integer.parseInt(value) < 1) {
            throw new IllegalArgumentException(where + ": " + key + "=" + value + " (expected: a count >= 1)");
        }
        return Integer.parseInt(value);
    }
}
