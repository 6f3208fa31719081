package io.mpirunj.launcher;

import io.mpirunj.AbortedException;
import io.mpirunj.Mpi;
import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.slurm.SlurmBootstrap;
import io.mpirunj.runtime.bootstrap.slurm.SlurmStep;
import io.mpirunj.runtime.comm.CallTracker;
import io.mpirunj.runtime.transport.tcp.NettyIo;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import org.slf4j.simple.SimpleServiceProvider;

/**
 * The main class of every rank process the launcher starts:
 * {@code java ... io.mpirunj.launcher.RankMain MainClass args...}. The rank's identity and the
 * rendezvous address are in the environment ({@link JobEnvironment}); the user's program joins the
 * job when it calls {@code Mpi.init(args)}.
 *
 * <p>Runs the user's {@code main}, then ends the JVM with {@code System.exit} so that stray
 * non-daemon threads cannot keep it alive. Exit status: 0 on success; 1 if the rank joined the job and its
 * main returned without leaving it ({@code Mpi.finish}, see {@link #RETURNED_WITHOUT_FINISH}); 1 after an uncaught exception
 * (its stack trace on stderr, every line prefixed {@code [rank R] }; for a
 * {@link RankFailedException}, whose cause the launcher reports, just its message and the user frame
 * that made the call); the job's exit code after an
 * {@link AbortedException}.
 */
public final class RankMain {
    /**
     * After a {@link RankFailedException} (another rank died), how long this rank waits to be stopped
     * by the launcher before it exits by itself: the launcher learns of the dead rank at once and
     * reports it as the cause, so this rank's consequential failure never wins the race to decide
     * the job's exit status.
     */
    static final long CONSEQUENTIAL_EXIT_DELAY_MS = 3_000;
    /** How often a rank checks that its launcher is still alive. */
    static final long WATCHDOG_PERIOD_MS = 250;
    /** slf4j's property naming its provider class. */
    static final String LOG_PROVIDER_PROP = "slf4j.provider";
    /** slf4j's property for its own messages' level. */
    static final String LOG_VERBOSITY_PROP = "slf4j.internal.verbosity";

    private RankMain() {
    }

    public static void main(String[] argv) {
        if (argv.length < 1) {
            System.err.println("usage: RankMain MainClass [args...] (started by mpirun-j, not by hand)");
            System.exit(UsageException.EXIT_CODE);
        }
        useBundledLogProvider();
        NettyIo.applyDefaults();
        watchLauncher(System.getenv(ProcessJob.LAUNCHER_PID_ENV));
        RankBody body = new RankBody(argv[0], Arrays.copyOfRange(argv, 1, argv.length));
        // Netty pools its buffer objects per thread only for threads that clean up its thread-locals:
        // this one drives the rank's transport whenever it waits (ProgressLoop), so it should pool too.
        FastThreadLocalThread.runWithFastThreadLocal(body);
        System.out.flush();
        System.err.flush();
        System.exit(body.exitCode);
    }

    /**
     * Names the bundled slf4j-simple as slf4j's provider (unless {@code -Dslf4j.provider} chose one), so
     * that slf4j does not search every jar of the classpath for providers at its first use (Netty's first
     * logger): ~5 % of a rank's start-up profile. It is the provider slf4j chose anyway, being first on the
     * classpath, only without a warning when the program brings another. slf4j says at INFO that it loads a
     * provider named so; its own verbosity becomes WARN (unless set), so that line stays out of the output.
     */
    static void useBundledLogProvider() {
        if (System.getProperty(LOG_PROVIDER_PROP) == null) {
            System.setProperty(LOG_PROVIDER_PROP, SimpleServiceProvider.class.getName());
            if (System.getProperty(LOG_VERBOSITY_PROP) == null) {
                System.setProperty(LOG_VERBOSITY_PROP, "WARN");
            }
        }
    }

    /**
     * The rank's program and its exit status. A class, not a lambda (as {@link LauncherWatchdog}): a
     * lambda that the class-data archive's training run never created is spun at every rank's start
     * (InnerClassLambdaMetafactory generating a class in the interpreter), which a class loaded from
     * the archive or the jar is not.
     */
    static final class RankBody implements Runnable {
        private final String mainClass;
        private final String[] args;
        int exitCode;

        RankBody(String mainClass, String[] args) {
            this.mainClass = mainClass;
            this.args = args;
        }

        @Override
        public void run() {
            exitCode = RankMain.run(mainClass, args);
        }
    }

    /**
     * No orphans: if the launcher process (pid {@code launcherPid}) goes away, this rank halts
     * within about a second, whatever its threads are doing (the control connection usually fails
     * its MPI calls first; this also covers ranks that never joined the job).
     */
    static void watchLauncher(String launcherPid) {
        if (launcherPid == null) {
            return;
        }
        ProcessHandle launcher;
        try {
            launcher = ProcessHandle.of(Long.parseLong(launcherPid.trim())).orElse(null);
        } catch (NumberFormatException e) {
            return;
        }
        Thread t = new LauncherWatchdog(launcher, launcherPid);
        t.setDaemon(true);
        t.start();
    }

    /** Halts this rank when the launcher process is gone (see {@link #watchLauncher}); a class, as {@link RankBody}. */
    static final class LauncherWatchdog extends Thread {
        private final ProcessHandle launcher;
        private final String launcherPid;

        LauncherWatchdog(ProcessHandle launcher, String launcherPid) {
            super("mpirunj-launcher-watchdog");
            this.launcher = launcher;
            this.launcherPid = launcherPid;
        }

        @Override
        public void run() {
            try {
                while (launcher != null && launcher.isAlive()) {
                    Thread.sleep(WATCHDOG_PERIOD_MS);
                }
                Thread.sleep(WATCHDOG_PERIOD_MS * 2); // a last chance to end by itself
            } catch (InterruptedException e) {
                return;
            }
            System.err.println(errorPrefix(rankFromEnvironment()) + "mpirun-j: the launcher (pid " + launcherPid
                    + ") is gone; halting this rank");
            System.err.flush();
            Runtime.getRuntime().halt(ExitCodes.FAILED);
        }
    }

    /**
     * Why a rank whose main returned after Mpi.init but without Mpi.finish fails the job, as a program that ends
     * without MPI_Finalize fails Open MPI's: the other ranks may still wait for it, and would forever.
     */
    static final String RETURNED_WITHOUT_FINISH = "main returned without calling Mpi.finish (every rank that called "
            + "Mpi.init must call it before its main returns, as MPI_Finalize): the other ranks cannot complete with it";

    /** Runs {@code mainClass.main(args)} as this process's rank; returns the exit status. */
    static int run(String mainClass, String[] args) {
        return run(mainClass, args, ClassLoader.getSystemClassLoader());
    }

    /** Runs {@code mainClass.main(args)}, loaded by {@code loader}, as this process's rank; returns the exit status. */
    static int run(String mainClass, String[] args, ClassLoader loader) {
        int rank = rankFromEnvironment();
        Map<String, String> env = System.getenv();
        if (!ProcessBootstrap.isLaunched(env) && SlurmStep.isDirectLaunch(env)) {
            SlurmBootstrap.beforeProgram(env); // as Mpi.init chooses: a task of a Slurm step without a launcher
        }
        try {
            Class<?> c = Class.forName(mainClass, true, loader);
            Method main = UserClasspath.mainMethod(c);
            main.invoke(null, (Object) args);
            RankContext ctx = RankContext.current();
            if (Mpi.isInitialized() && !ctx.isFinished()) {
                if (ctx.abortExitCode() >= 0) {
                    return ctx.abortExitCode(); // as if the abort it caught had left main
                }
                if (ctx.knowsOfAFailure()) {
                    return consequentialExit(); // it gave up on a failing job: the failure is the launcher's to say
                }
                // finishing for the program would wait forever whenever another rank still waits for this one
                System.err.println(errorPrefix(rank) + "mpirun-j: " + RETURNED_WITHOUT_FINISH);
                return ExitCodes.FAILED;
            }
            return 0;
        } catch (InvocationTargetException e) {
            return failed(rank, e.getCause() != null ? e.getCause() : e);
        } catch (Throwable t) {
            return failed(rank, t);
        }
    }

    /**
     * {@link RankOutput#rankPrefix} for this rank process, tagged as the launcher says
     * ({@link JobEnvironment#TAGGED_OUTPUT}).
     */
    static String errorPrefix(int rank) {
        return RankOutput.rankPrefix(rank, "1".equals(System.getenv(JobEnvironment.TAGGED_OUTPUT)));
    }

    private static int failed(int rank, Throwable t) {
        AbortedException aborted = causeOf(t, AbortedException.class);
        if (aborted != null) {
            return aborted.exitCode();
        }
        RankFailedException peerFailed = causeOf(t, RankFailedException.class);
        if (peerFailed != null) {
            // a peer's death is reported by the launcher; here one line and where it hit this rank suffice
            System.err.println(errorPrefix(rank) + peerFailed);
            StackTraceElement where = userFrame(t.getStackTrace());
            if (where != null) {
                System.err.println(errorPrefix(rank) + "\tat " + where);
            }
            return consequentialExit();
        }
        for (String line : RankOutput.stackTraceLines(errorPrefix(rank), t)) {
            System.err.println(line);
        }
        return 1;
    }

    /** How deep {@link #causeOf} looks. */
    private static final int MAX_CAUSES = 64;

    /**
     * {@code t} or the first of its causes that is a {@code type}, else null: the {@code mpi} package's
     * {@code MPIException} wraps the runtime's exceptions, and an abort or a peer's death inside it is as quiet as
     * one thrown bare.
     */
    static <T extends Throwable> T causeOf(Throwable t, Class<T> type) {
        int depth = 0;
        for (Throwable c = t; c != null && depth++ < MAX_CAUSES; c = c.getCause()) { // bounded: causes may cycle
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /**
     * The status of a rank that ends because another failed: 1, after {@link #CONSEQUENTIAL_EXIT_DELAY_MS}, so that the
     * failure it follows decides the job's status (normally the launcher stops this rank meanwhile).
     */
    private static int consequentialExit() {
        System.err.flush();
        try {
            Thread.sleep(CONSEQUENTIAL_EXIT_DELAY_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 1;
    }

    /** The first frame outside the mpirun-j runtime and the JDK: where the user's code made the call. */
    private static StackTraceElement userFrame(StackTraceElement[] frames) {
        for (StackTraceElement f : frames) {
            if (CallTracker.isUserClass(f.getClassName())) {
                return f;
            }
        }
        return null;
    }

    private static int rankFromEnvironment() {
        String r = System.getenv(JobEnvironment.WORLD_RANK);
        if (r == null) {
            r = System.getenv(JobEnvironment.PMI_RANK);
        }
        if (r == null) {
            r = System.getenv("SLURM_PROCID"); // started by srun directly
        }
        try {
            return r == null ? 0 : Integer.parseInt(r.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
