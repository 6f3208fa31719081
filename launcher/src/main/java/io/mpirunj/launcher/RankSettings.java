package io.mpirunj.launcher;

import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.trace.MessageTrace;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code MPIRUNJ_*} variables every rank reads when it starts ({@link RuntimeConfig#from},
 * {@link FabricEmulation#fromEnvironment}, {@link MessageTrace#fileFrom}), checked once in the launcher before
 * any rank starts: a bad value is one {@link UsageException} naming the variable, instead of every rank dying
 * with a stack trace. A variable whose option was given is not checked (the option wins: the launcher sets the
 * variable for the ranks from it).
 *
 * <p>Also checked for processes: {@code MPIRUNJ_RENDEZVOUS_TIMEOUT_MS} and {@code MPIRUNJ_LAUNCHER_SILENCE_MS},
 * which pass from this environment to the rank processes unless the launcher sets them. Not checked:
 * {@code MPIRUNJ_COLL_REPORT}, {@code MPIRUNJ_CHECK_COLLECTIVES} and {@code MPIRUNJ_RENDEZVOUS_WAIT} (any value but
 * {@code 1} is off, so none is bad), {@code MPIRUNJ_ADVERTISE_HOST} and {@code MPIRUNJ_BIND_HOST} (host names,
 * which only binding tells good from bad), the rendezvous address, job token and rank identity (the launcher sets
 * them for every rank), and the launcher's own ({@code MPIRUNJ_CDS}, {@code MPIRUNJ_SLURM}, ...), which it reads itself.
 */
final class RankSettings {
    /** The fabric variables, in the order they are named in a message. */
    static final List<String> FABRIC_VARIABLES = List.of(RuntimeConfig.FABRIC_ENV, RuntimeConfig.PLACEMENT_ENV,
            FabricEmulation.PARAMS_ENV, FabricEmulation.TIME_SCALE_ENV, FabricEmulation.FAULT_ENV);

    private RankSettings() {
    }

    /**
     * Checks the ranks' settings in {@code env} (the launcher's environment with {@code -x} on top).
     *
     * @param options the variables the launcher sets from options ({@code --model} sets {@code MPIRUNJ_MODEL}, ...):
     *                their values in {@code env} are not the ranks' and are not checked
     */
    static void check(Map<String, String> env, Set<String> options, int size, boolean threads, ClassLoader loader)
            throws UsageException {
        String model = value(env, options, RuntimeConfig.MODEL_ENV);
        if (model != null) {
            try {
                ModelSpec.parse(model);
            } catch (IllegalArgumentException e) {
                throw bad(RuntimeConfig.MODEL_ENV, model, e);
            }
        }
        String forced = value(env, options, CollectiveRegistry.ENV_NAME);
        String rules = value(env, options, RuntimeConfig.COLL_RULES_ENV);
        if (forced != null || rules != null) {
            try {
                CollectiveRegistry.of(forced, rules == null ? null : rulesPath(rules), loader);
            } catch (IllegalArgumentException e) {
                throw bad(rules != null && e.getMessage().startsWith(rulesPath(rules)) ? RuntimeConfig.COLL_RULES_ENV
                        : CollectiveRegistry.ENV_NAME, rules != null && e.getMessage().startsWith(rulesPath(rules))
                        ? rules : forced, e);
            }
        }
        List<String> counts = new ArrayList<>(List.of(JobEnvironment.EAGER_LIMIT, JobEnvironment.EAGER_CREDIT_BYTES));
        if (!threads) { // read by rank processes as they join the job
            counts.addAll(List.of(JobEnvironment.RENDEZVOUS_TIMEOUT_MS, JobEnvironment.LAUNCHER_SILENCE_MS));
        }
        for (String count : counts) {
            String v = value(env, options, count);
            if (v != null) {
                try {
                    RuntimeConfig.nonNegativeSetting(count, v, 0);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
        }
        String tune = value(env, options, RuntimeConfig.COLL_TUNE_ENV);
        if (tune != null) {
            try {
                RuntimeConfig.collTune(RuntimeConfig.COLL_TUNE_ENV, tune);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        String transport = value(env, options, JobEnvironment.TRANSPORT);
        if (transport != null && !RuntimeConfig.TRANSPORTS.contains(transport)) {
            throw new UsageException(JobEnvironment.TRANSPORT + "=" + transport + " (expected: auto, tcp or local)");
        }
        checkFabric(env, options, size);
        String trace = value(env, options, MessageTrace.ENV);
        if (trace != null) {
            Path parent;
            try {
                parent = Path.of(trace).toAbsolutePath().getParent();
            } catch (InvalidPathException e) {
                throw new UsageException(MessageTrace.ENV + "=" + trace + ": not a valid path");
            }
            if (parent != null && !Files.isDirectory(parent)) {
                throw new UsageException(MessageTrace.ENV + "=" + trace + ": no such directory " + parent);
            }
        }
    }

    /** The rules file as the registry names it in its messages. */
    static String rulesPath(String rules) {
        try {
            return Path.of(rules).toAbsolutePath().normalize().toString();
        } catch (InvalidPathException e) {
            return rules;
        }
    }

    /** {@code MPIRUNJ_FABRIC}, {@code MPIRUNJ_PLACEMENT} and the emulation's variables, as the ranks read them. */
    private static void checkFabric(Map<String, String> env, Set<String> options, int size) throws UsageException {
        List<String> set = new ArrayList<>();
        for (String v : FABRIC_VARIABLES) {
            if (value(env, options, v) != null) {
                set.add(v + "=" + env.get(v).trim());
            }
        }
        if (set.isEmpty()) {
            return;
        }
        try {
            RuntimeConfig config = RuntimeConfig.defaults().withFabric(env.get(RuntimeConfig.FABRIC_ENV),
                    env.get(RuntimeConfig.PLACEMENT_ENV));
            if (config.fabricSpec() == null && config.placementSpec() != null) {
                // as --placement without --fabric: the ranks would ignore it
                throw new IllegalArgumentException("a placement needs a fabric (MPIRUNJ_FABRIC or --fabric)");
            }
            if (config.fabricSpec() != null) {
                io.mpirunj.fabric.placement.Placement.parse(config.placementSpec() == null ? "identity"
                        : config.placementSpec(), io.mpirunj.fabric.topology.Topology.parse(config.fabricSpec()), size);
            }
            FabricEmulation.fromEnvironment(config, env, size);
        } catch (IllegalArgumentException e) {
            throw new UsageException(String.join(" ", set) + ": " + e.getMessage());
        }
    }

    /** The variable's value for the ranks, trimmed; null when unset, blank, or set by an option. */
    private static String value(Map<String, String> env, Set<String> options, String name) {
        String v = options.contains(name) ? null : env.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private static UsageException bad(String name, String value, IllegalArgumentException e) {
        return new UsageException(name + "=" + value + ": " + e.getMessage());
    }
}
