package io.mpirunj.launcher;

import io.mpirunj.AbortedException;
import io.mpirunj.Mpi;
import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The main class of every rank process the launcher starts:
 * {@code java ... io.mpirunj.launcher.RankMain MainClass args...}. The rank's identity and the
 * rendezvous address are in the environment ({@link JobEnvironment}); the user's program joins the
 * job when it calls {@code Mpi.init(args)}.
 *
 * <p>Runs the user's {@code main}; afterwards, if the rank joined the job and did not leave it,
 * leaves it ({@code Mpi.finish()}), then ends the JVM with {@code System.exit} so that stray
 * non-daemon threads cannot keep it alive. Exit status: 0 on success; 1 after an uncaught exception
 * (its stack trace on stderr, every line prefixed {@code [rank R] }; for a
 * {@link RankFailedException}, whose cause the launcher reports, just its message and the user frame
 * that made the call); the job's exit code after an
 * {@link AbortedException}.
 */
public final class RankMain {
    private RankMain() {
    }

    public static void main(String[] argv) {
        if (argv.length < 1) {
            System.err.println("usage: RankMain MainClass [args...] (started by mpirun-j, not by hand)");
            System.exit(UsageException.EXIT_CODE);
        }
        int code = run(argv[0], Arrays.copyOfRange(argv, 1, argv.length));
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** Runs {@code mainClass.main(args)} as this process's rank; returns the exit status. */
    static int run(String mainClass, String[] args) {
        int rank = rankFromEnvironment();
        try {
            Class<?> c = Class.forName(mainClass, true, ClassLoader.getSystemClassLoader());
            Method main = UserClasspath.mainMethod(c);
            main.invoke(null, (Object) args);
            if (Mpi.isInitialized()) {
                Mpi.finish(); // idempotent: returns at once if the program already called it
            }
            return 0;
        } catch (InvocationTargetException e) {
            return failed(rank, e.getCause() != null ? e.getCause() : e);
        } catch (Throwable t) {
            return failed(rank, t);
        }
    }

    private static int failed(int rank, Throwable t) {
        if (t instanceof AbortedException) {
            return ((AbortedException) t).exitCode();
        }
        if (t instanceof RankFailedException) {
            // a peer's death is reported by the launcher; here one line and where it hit this rank suffice
            System.err.println("[rank " + rank + "] " + t);
            StackTraceElement where = userFrame(t.getStackTrace());
            if (where != null) {
                System.err.println("[rank " + rank + "] \tat " + where);
            }
            return 1;
        }
        for (String line : RankOutput.stackTraceLines(rank, t)) {
            System.err.println(line);
        }
        return 1;
    }

    /** The first frame outside the mpirun-j runtime and the JDK: where the user's code made the call. */
    private static StackTraceElement userFrame(StackTraceElement[] frames) {
        for (StackTraceElement f : frames) {
            String c = f.getClassName();
            boolean runtime = c.startsWith("io.mpirunj.") && !c.startsWith("io.mpirunj.examples.")
                    && RankClassLoader.isShared(c);
            if (!runtime && !c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("io.netty.")) {
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
        try {
            return r == null ? 0 : Integer.parseInt(r.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
