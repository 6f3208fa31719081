package io.mpirunj.runtime.bootstrap;

import io.mpirunj.MpiException;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.transport.tcp.TcpConfig;
import io.mpirunj.runtime.transport.NetworkTransport;
import io.mpirunj.runtime.transport.Transports;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Starts a rank process from the launcher's environment ({@link JobEnvironment}): binds the TCP
 * transport on an ephemeral port, registers with the rendezvous endpoint, learns every peer's
 * address, and returns the rank's context.
 *
 * <pre>
 *  env ─► rank, size, token, rendezvous ─► TcpTransport (bound, not yet accepting)
 *      ─► RendezvousClient.register (blocks until all ranks registered) ─► address table
 *      ─► RankContext (starts the transport) ─► launcher notices wired to the context
 * </pre>
 *
 * <p>Closing: {@code RankContext.finish()} closes the transport, whose close hook then says goodbye
 * to the launcher and closes the control connection.
 */
public final class ProcessBootstrap {
    /** Default of {@link JobEnvironment#RENDEZVOUS_TIMEOUT_MS}. */
    public static final int RENDEZVOUS_TIMEOUT_MS_DEFAULT = 60_000;
    /** How long a rank whose launcher vanished may take to end by itself before it halts. */
    public static final long LAUNCHER_LOST_GRACE_MS = 2_000;

    private ProcessBootstrap() {
    }

    /** True if {@code env} describes a rank started by the launcher. */
    public static boolean isLaunched(Map<String, String> env) {
        return env.containsKey(JobEnvironment.RENDEZVOUS);
    }

    /**
     * Builds this process's rank from {@code env} (normally {@code System.getenv()}).
     *
     * @throws IllegalArgumentException if a variable is missing or malformed (the message names it)
     * @throws MpiException if binding, the rendezvous or the address exchange fails
     */
    public static RankContext start(Map<String, String> env) {
        int size = intVar(env, JobEnvironment.WORLD_SIZE, JobEnvironment.PMI_SIZE);
        int rank = intVar(env, JobEnvironment.WORLD_RANK, JobEnvironment.PMI_RANK);
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank=" + rank + ", size=" + size + " (expected: 0 <= rank < size, from "
                    + JobEnvironment.WORLD_RANK + "/" + JobEnvironment.WORLD_SIZE + ")");
        }
        InetSocketAddress rendezvous = hostPort(require(env, JobEnvironment.RENDEZVOUS));
        String tokenHex = require(env, JobEnvironment.JOB_TOKEN);
        byte[] token = JobToken.decode(tokenHex);
        int timeoutMs = env.containsKey(JobEnvironment.RENDEZVOUS_TIMEOUT_MS)
                ? intVar(env, JobEnvironment.RENDEZVOUS_TIMEOUT_MS, null)
                : RENDEZVOUS_TIMEOUT_MS_DEFAULT;
        RuntimeConfig config = RuntimeConfig.from(env);
        // --fabric-params: this rank's messages go through the launcher's arbiter service
        config = io.mpirunj.runtime.fabric.FabricEmulation.installForProcess(config, env, rank, size);
        java.nio.file.Path traceFile = io.mpirunj.runtime.trace.MessageTrace.fileFrom(env); // --trace: one file per rank
        if (traceFile != null) {
            config = io.mpirunj.runtime.trace.TracingTransport.install(config,
                    new io.mpirunj.runtime.trace.MessageTrace(java.nio.file.Path.of(traceFile + ".r" + rank)));
        }
        TcpConfig tcp = TcpConfig.from(env);
        if (tcp.maxEagerBytes() < config.eagerLimitBytes()) {
            tcp = tcp.withMaxEagerBytes(config.eagerLimitBytes()); // every eager message must be accepted
        }

        NetworkTransport transport = Transports.forProcesses(config, token, tcp).create(rank, size);
        RendezvousClient client = null;
        // a Slurm step without a launcher: rank 0 hosts the rendezvous, and nobody reports what happens to it
        boolean hostedByRank0 = "1".equals(env.get(JobEnvironment.RENDEZVOUS_WAIT));
        try {
            client = RendezvousClient.register(rendezvous, tokenHex, rank, size, transport.advertisedAddress(),
                    timeoutMs, hostedByRank0);
            if (env.containsKey(JobEnvironment.LAUNCHER_SILENCE_MS)) {
                client.expectHeartbeats(intVar(env, JobEnvironment.LAUNCHER_SILENCE_MS, null));
            }
            transport.setPeerAddresses(client.addresses());
            transport.addCloseHook(client::close);
            RuntimeConfig rankConfig = config;
            // made at the rank's first collective (the launcher has checked --coll and --coll-rules); with the
            // process-specific thresholds, unless an emulated fabric times the messages (its costs are the model's)
            Supplier<CollectiveRegistry> registry = () -> {
                CollectiveRegistry all = CollectiveRegistry.of(rankConfig, ProcessBootstrap.class.getClassLoader());
                return rankConfig.fabricSpec() == null ? all.forRankProcesses() : all;
            };
            RankContext ctx = new RankContext(rank, size, Transports.decorate(transport, config), client, config,
                    registry);
            client.listen(new RendezvousClient.Listener() {
                @Override
                public void onRankFailed(int failed, String reason) {
                    MpiException cause = new MpiException("the launcher reports rank " + failed + " failed: "
                            + reason);
                    ctx.onRankFailed(failed, cause);
                    transport.abandonPeer(failed, cause); // also ends a close() waiting for it
                }

                @Override
                public void onJobAborted(int exitCode, String reason) {
                    ctx.onJobAborted(exitCode, reason);
                }

                @Override
                public void onLauncherLost(String reason) {
                    if (hostedByRank0 && rank != 0) {
                        // rank 0 is gone without a word (System.exit, a crash): no launcher will say why the step
                        // ends, so each rank does (rank 0 loses its own rendezvous only as it ends itself); said
                        // before the abort below, which may end this process at once (SlurmTest saw it unsaid)
                        sayWhy(rank, reason, "ending this rank");
                    }
                    ctx.onJobAborted(RendezvousClient.LAUNCHER_LOST_EXIT_CODE, reason);
                    haltLater(rank, reason);
                }

                @Override
                public String onStatusQuery() {
                    return ctx.describeActivity();
                }

                @Override
                public void onPeerInFinish(int peer, long sentHere) {
                    ctx.engine().onPeerInFinish(peer, sentHere);
                }
            });
            return ctx;
        } catch (RuntimeException | Error e) {
            transport.close(); // runs client.close() if the hook was added
            if (client != null) {
                client.close();
            }
            throw e;
        }
    }

    /**
     * The launcher is gone, so nothing will ever stop this process: its MPI calls have been failed
     * (which normally ends it); if it is still alive after {@link #LAUNCHER_LOST_GRACE_MS} (its main
     * thread is busy elsewhere, or non-daemon threads keep it up), it halts with
     * {@link RendezvousClient#LAUNCHER_LOST_EXIT_CODE}.
     */
    static void haltLater(int rank, String reason) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(LAUNCHER_LOST_GRACE_MS);
            } catch (InterruptedException e) {
                return;
            }
            sayWhy(rank, reason, "halting this rank");
            Runtime.getRuntime().halt(RendezvousClient.LAUNCHER_LOST_EXIT_CODE);
        }, "mpirunj-launcher-lost");
        t.setDaemon(true);
        t.start();
    }

    /** One line on stderr, for when nobody else will report it: {@code [rank R] mpirun-j: reason; what}. */
    private static void sayWhy(int rank, String reason, String what) {
        System.err.println("[rank " + rank + "] mpirun-j: " + reason + "; " + what);
        System.err.flush();
    }

    private static String require(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is not set (expected: set by the mpirun-j launcher)");
        }
        return v.trim();
    }

    /** {@code name}, else {@code fallback} (may be null), as a non-negative int. */
    private static int intVar(Map<String, String> env, String name, String fallback) {
        String used = name;
        String v = env.get(name);
        if ((v == null || v.isBlank()) && fallback != null) {
            used = fallback;
            v = env.get(fallback);
        }
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + (fallback != null ? " (or " + fallback + ")" : "")
                    + " is not set (expected: set by the mpirun-j launcher)");
        }
        return RuntimeConfig.nonNegativeSetting(used, v, 0);
    }

    /** {@code host:port}, {@code [v6]:port}. */
    static InetSocketAddress hostPort(String s) {
        int colon = s.lastIndexOf(':');
        String host = colon > 0 ? s.substring(0, colon) : "";
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = -1;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            // reported below
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new IllegalArgumentException(JobEnvironment.RENDEZVOUS + "=" + s + " (expected: host:port)");
        }
        return new InetSocketAddress(host, port);
    }
}
