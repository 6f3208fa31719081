package io.mpirunj.launcher;

import io.mpirunj.launcher.hosts.HostList;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where and how the rank JVMs start, and the network they sit on: options the run command and {@code bench} both
 * take, declared once as picocli mixins. Four mixins, not one, because the run command's help lists them in four
 * places.
 * {@code bench} hands them on to the run command it starts its jobs with ({@link #arguments}).
 */
public final class LaunchOptions {
    private LaunchOptions() {
    }

    /** The hosts the ranks run on, and how they are reached. */
    public static final class Hosts {
        @Option(names = {"--hostfile", "--machinefile"}, paramLabel = "FILE",
                description = "Run the ranks on the hosts in FILE: lines 'host', 'host slots=N' or 'host:N', # comments "
                        + "(default: $" + HostList.OMPI_HOSTFILE_ENV + " or $" + HostList.HYDRA_HOSTFILE_ENV
                        + " if set, else this host only). Without -np: as many ranks as slots.")
        Path hostfile;

        @Option(names = {"--host", "-H"}, paramLabel = "HOST[:N],...",
                description = "Run the ranks on these hosts, N slots each (default 1), e.g. --host node1,node2:4.")
        String hostOption;

        @Option(names = "--map-by", paramLabel = "slot|node",
                description = "Fill each host's slots before the next (slot, the default), or one rank per host in "
                        + "turn (node).")
        String mapBy;

        @Option(names = "--launch-agent", paramLabel = "COMMAND",
                description = "How ranks start on other hosts: COMMAND HOST env VAR=... java ... (default: ssh). E.g. "
                        + "\"docker exec\", \"ssh -p 2222\", \"kubectl exec {host} --\" ({host} marks where the host goes). "
                        + "localhost, 127.0.0.1 and this host's name start directly.")
        String launchAgent;

        @Option(names = "--rendezvous-host", paramLabel = "ADDRESS",
                description = "The launcher's address as the other hosts reach it (default: the address of the "
                        + "interface that routes to the first other host).")
        String rendezvousHost;
    }

    /** More ranks than the hosts have slots. */
    public static final class Oversubscribe {
        @Option(names = "--oversubscribe", description = "More ranks than the hosts' slots (round the hosts again); "
                + "on this host alone more ranks than cores is always allowed.")
        boolean oversubscribe;
    }

    /** Options for every rank's JVM. */
    public static final class JvmArgs {
        @Option(names = {"-J", "--jvm-arg"}, paramLabel = "OPTION", parameterConsumer = NextWord.class,
                description = "An option for every rank's JVM, e.g. -J -Xmx1g or --jvm-arg=-ea. May be repeated. "
                        + "(With --threads the ranks share the launcher's JVM: use MPIRUNJ_JAVA_OPTS.)")
        List<String> jvmArgs = new ArrayList<>();
    }

    /**
     * -J's value is the next word, whatever it looks like: a JVM option such as {@code -verbose:gc} starts like the
     * launcher's {@code -v} (picocli refused it as a missing value).
     */
    static final class NextWord implements picocli.CommandLine.IParameterConsumer {
        @Override
        public void consumeParameters(java.util.Stack<String> args, picocli.CommandLine.Model.ArgSpec argSpec,
                picocli.CommandLine.Model.CommandSpec commandSpec) {
            if (args.isEmpty()) {
                throw new picocli.CommandLine.MissingParameterException(commandSpec.commandLine(), argSpec,
                        "Missing required parameter for option '" + ((picocli.CommandLine.Model.OptionSpec) argSpec)
                                .longestName() + "' (" + argSpec.paramLabel() + ")");
            }
            List<String> values = argSpec.getValue();
            values.add(args.pop());
        }
    }

    /** The network the ranks sit on, and its emulation: what placement-aware collectives run on. */
    public static final class Network {
        @Option(names = "--fabric", paramLabel = "SPEC",
                description = "The network the ranks sit on, for placement-aware collectives (opt-mesh, sem, star): "
                        + "mesh:AxB[xC], torus:AxB, hypercube:D, star:N or complete:N.")
        String fabric;

        @Option(names = "--placement", paramLabel = "SPEC",
                description = "Where the ranks sit on --fabric (or MPIRUNJ_FABRIC): identity (rank r on node r, the "
                        + "default), random:SEED or a list of coordinates such as 3/2,1/5,2/1.")
        String placement;

        @Option(names = "--fabric-params", paramLabel = "PARAMS",
                description = {"Emulate --fabric live: every message is timed, contention included, by the wormhole "
                        + "engine with these parameters, one of:",
                    io.mpirunj.fabric.wormhole.WormholeParams.FORM + ": flit level,",
                    "e.g. ss=2000,sd=2,cd=2,rs=3500,rd=3;",
                    io.mpirunj.fabric.wormhole.Fabric.MODEL_PARAMS_FORM + ": a cost model as --model,",
                    io.mpirunj.fabric.model.ModelSpec.LOGP_FORM + ": the same in LogP terms.",
                    "Processes: ranks on this host only (the launcher hosts the arbiter)."})
        String fabricParams;

        @Option(names = "--fabric-time-scale", paramLabel = "US_PER_UNIT",
                description = "Wall-clock microseconds per model time unit of --fabric-params (default 1). "
                        + "Comm.wtime then reads model time x this scale.")
        Double fabricTimeScale;

        /** True if {@code --fabric} was given (the other three need it, or MPIRUNJ_FABRIC). */
        public boolean fabricGiven() {
            return fabric != null;
        }

        /** The options given, as the run command's arguments. */
        public List<String> arguments() {
            List<String> a = new ArrayList<>();
            add(a, "--fabric", fabric);
            add(a, "--placement", placement);
            add(a, "--fabric-params", fabricParams);
            add(a, "--fabric-time-scale", fabricTimeScale == null ? null : fabricTimeScale.toString());
            return a;
        }
    }

    /** The options given in {@code hosts}, {@code over} and {@code jvm}, as the run command's arguments. */
    public static List<String> arguments(Hosts hosts, Oversubscribe over, JvmArgs jvm) {
        List<String> a = new ArrayList<>();
        add(a, "--hostfile", hosts.hostfile == null ? null : hosts.hostfile.toString());
        add(a, "--host", hosts.hostOption);
        add(a, "--map-by", hosts.mapBy);
        add(a, "--launch-agent", hosts.launchAgent);
        add(a, "--rendezvous-host", hosts.rendezvousHost);
        if (over.oversubscribe) {
            a.add("--oversubscribe");
        }
        for (String j : jvm.jvmArgs) {
            add(a, "-J", j);
        }
        return a;
    }

    /** Adds {@code name value} to the arguments {@code a} when {@code value} is set (not null). */
    public static void add(List<String> a, String name, String value) {
        if (value != null) {
            a.add(name);
            a.add(value);
        }
    }
}
