package io.mpirunj.launcher;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.JobToken;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import io.mpirunj.runtime.transport.tcp.NettyIo;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The training run of the ranks' class-data archive ({@link ClassDataArchive}): a two-rank job over
 * TCP inside one JVM that goes through what every rank process does (rendezvous, transport,
 * collectives registry, eager and rendezvous messages, a few collectives, finish), so the classes
 * it loads are the ones worth archiving. Run as {@code java -XX:ArchiveClassesAtExit=... CdsTraining};
 * exits 0 on success.
 */
final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        // What RankMain.main does around a rank's program, so that its classes and lambdas are archived
        // too (a lambda missing from the archive is spun at every rank's start): the watchdog (watching
        // this JVM itself), the program run by RankMain.run inside Netty's FastThreadLocal scope.
        RankMain.useBundledLogProvider();
        NettyIo.applyDefaults();
        RankMain.watchLauncher(Long.toString(ProcessHandle.current().pid()));
        RankMain.RankBody body = new RankMain.RankBody(Job.class.getName(), new String[0]);
        FastThreadLocalThread.runWithFastThreadLocal(body);
        System.exit(body.exitCode);
    }

    /** The training job, run as a rank's program is. */
    static final class Job {
        private Job() {
        }

        public static void main(String[] args) throws Exception {
            int n = 2;
            String token = JobToken.random();
            ExecutorService pool = Executors.newFixedThreadPool(n);
            try (RendezvousServer server = new RendezvousServer(n, token, ProcessJob.BIND_HOST, new Quiet())) {
                Future<?>[] ranks = new Future<?>[n];
                for (int r = 0; r < n; r++) {
                    Map<String, String> env = new HashMap<>();
                    env.put(JobEnvironment.RENDEZVOUS, ProcessJob.BIND_HOST + ":" + server.address().getPort());
                    env.put(JobEnvironment.JOB_TOKEN, token);
                    env.put(JobEnvironment.WORLD_RANK, Integer.toString(r));
                    env.put(JobEnvironment.WORLD_SIZE, Integer.toString(n));
                    ranks[r] = pool.submit(() -> {
                        RankContext ctx = ProcessBootstrap.start(env);
                        try {
                            exercise(ctx.world());
                        } finally {
                            ctx.finish();
                        }
                        return null;
                    });
                }
                for (Future<?> f : ranks) {
                    f.get(30, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static void exercise(Comm world) {
        int me = world.rank();
        int peer = 1 - me;
        world.barrier();
        world.sendrecv(Buffer.of(new int[] {me}), peer, 1, Buffer.of(new int[1]), peer, 1);
        world.sendrecv(Buffer.of(new byte[256 * 1024]), peer, 2, Buffer.of(new byte[256 * 1024]), peer, 2);
        world.bcast(Buffer.of(new double[16]), 0);
        world.allreduce(Buffer.of(new long[] {me}), Buffer.of(new long[1]), Op.SUM);
        world.alltoall(Buffer.of(new int[2]), Buffer.of(new int[2]));
        world.allgather(Buffer.of(new int[1]), Buffer.of(new int[2]));
        world.barrier();
    }

    private static final class Quiet implements RendezvousServer.Listener {
        @Override
        public void onAllRegistered() {
        }

        @Override
        public void onAbort(int rank, int exitCode, String reason) {
        }

        @Override
        public void onRankLost(int rank, String reason) {
        }
    }
}
