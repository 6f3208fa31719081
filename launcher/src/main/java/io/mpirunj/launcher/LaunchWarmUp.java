package io.mpirunj.launcher;

import io.mpirunj.runtime.bootstrap.JobToken;
import io.mpirunj.runtime.transport.tcp.NettyIo;
import io.mpirunj.runtime.wire.Register;
import io.netty.buffer.PooledByteBufAllocator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Set;

/**
 * The class initialisation a plain run with the ranks as processes needs before its first rank can start (Netty
 * and its native epoll library, the pooled allocator, protobuf and the logging behind it, the token's
 * {@link java.security.SecureRandom}, the digest of the ranks' class-data archive key), done on a second thread
 * while the main thread parses the command line. Both take about a tenth of a second of one core on a 2-core
 * machine, and nothing else runs then: the first rank starts that much sooner. It only initialises classes and
 * sets the properties the run sets anyway ({@link MpirunJ#call}); the main thread waits for it
 * ({@link #await}) before its first use of Netty, so no class is initialised by both threads.
 */
final class LaunchWarmUp extends Thread {
    /** Words after which the run is not a plain process run, or sets up its logging differently. */
    static final Set<String> NOT_PLAIN = Set.of("--threads", "--srun-rank", "-v", "--verbose", "--list-algorithms");

    private LaunchWarmUp() {
        super("mpirunj-warm-up");
        setDaemon(true);
    }

    /**
     * Starts the warm-up for {@code args} if they are a plain run (start with an option, name no subcommand, no
     * word is in {@link #NOT_PLAIN}, even among the program's arguments: a stray match only forgoes the warm-up);
     * returns it, or null.
     */
    static LaunchWarmUp startFor(String[] args) {
        if (!isPlainRun(args)) {
            return null;
        }
        LaunchWarmUp t = new LaunchWarmUp();
        t.start();
        return t;
    }

    /** True if {@code args} are a plain run with the ranks as processes, as {@link #startFor} decides. */
    static boolean isPlainRun(String[] args) {
        if (!MpirunJ.runsWithoutSubcommands(args)) {
            return false;
        }
        for (String a : args) {
            if (NOT_PLAIN.contains(a)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void run() {
        try {
            MpirunJ.quietRuntimeLogging(false); // as call() does for a run without --verbose, before any logger
            NettyIo.applyDefaults();
            // before the first rank starts: the rendezvous server's Netty, the token, the archive's key
            NettyIo io = NettyIo.select(true);
            ClassLoader loader = LaunchWarmUp.class.getClassLoader();
            Class.forName(io.isEpoll() ? "io.netty.channel.epoll.EpollServerSocketChannel"
                    : "io.netty.channel.socket.nio.NioServerSocketChannel", true, loader);
            Class.forName("io.netty.bootstrap.ServerBootstrap", true, loader);
            PooledByteBufAllocator.DEFAULT.buffer(1).release();
            JobToken.random();
            MessageDigest.getInstance("SHA-256");
            // then what the rendezvous thread needs as the ranks register: protobuf (and the logging behind it)
            Register.newBuilder().setRank(1).setHost("localhost").build().toByteArray();
        } catch (ClassNotFoundException | NoSuchAlgorithmException | RuntimeException | LinkageError e) {
            // the run meets the same failure where it uses these, and reports it there
        }
    }

    /** Waits for {@code warmUp} (null: nothing to wait for) to end. */
    static void await(LaunchWarmUp warmUp) {
        if (warmUp == null) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                warmUp.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
