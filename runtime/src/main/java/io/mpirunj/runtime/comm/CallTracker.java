package io.mpirunj.runtime.comm;

import io.mpirunj.Comm;
import java.util.concurrent.TimeUnit;

/**
 * What one rank is doing right now, for the launcher's report when a job times out: the blocking
 * MPI call it is in (operation, peer or root, tag, communicator, since when, called from where), or
 * where its main thread is when it is in none.
 *
 * <p>{@link CommImpl}'s blocking calls bracket themselves with {@link #enter} and {@link #exit};
 * nested calls (a collective built on another) restore the outer one on exit. The cost is one small
 * allocation and two volatile writes per blocking call; nothing is formatted until someone asks
 * ({@link #describe}).
 *
 * <p>Threading: any thread may enter and exit; any thread may describe. With several threads of
 * one rank in MPI calls at once, the most recent call is the one reported.
 */
public final class CallTracker {
    /** No peer argument. */
    public static final int NO_PEER = Integer.MIN_VALUE;

    /** One blocking call in progress. Immutable. */
    public static final class Call {
        final String op;
        /** "dest", "source", "root" or null. */
        final String peerName;
        final int peer;
        /** Tag, or {@link #NO_PEER} for none. */
        final int tag;
        final Comm comm;
        final Thread thread;
        final long startNs;
        final Call outer;

        Call(String op, String peerName, int peer, int tag, Comm comm, Call outer) {
            this.op = op;
            this.peerName = peerName;
            this.peer = peer;
            this.tag = tag;
            this.comm = comm;
            this.thread = Thread.currentThread();
            this.startNs = System.nanoTime();
            this.outer = outer;
        }
    }

    private volatile Call current;
    private volatile Thread mainThread;

    /** Records that the calling thread is the rank's main thread (the one that called {@code Mpi.init}). */
    public void setMainThread(Thread t) {
        mainThread = t;
    }

    /** Starts a call; returns the token to pass to {@link #exit}. */
    public Call enter(String op, String peerName, int peer, int tag, Comm comm) {
        Call c = new Call(op, peerName, peer, tag, comm, current);
        current = c;
        return c;
    }

    /** Starts a call without peer or tag. */
    public Call enter(String op, Comm comm) {
        return enter(op, null, NO_PEER, NO_PEER, comm);
    }

    /** Ends {@code call} (restores the call it was nested in). */
    public void exit(Call call) {
        if (current == call) {
            current = call.outer;
        }
    }

    /** True if some thread of the rank is in a tracked call. */
    public boolean inCall() {
        return current != null;
    }

    /**
     * One line: {@code recv(source=ANY_SOURCE, tag=99) on world for 2.9 s at app.Main.main(Main.java:12)},
     * or {@code not in an MPI call, at app.Main.main(Main.java:30)}.
     */
    public String describe() {
        Call c = current;
        if (c == null) {
            Thread t = mainThread;
            if (t == null) {
                return "has not called Mpi.init";
            }
            if (!t.isAlive()) {
                return "not in an MPI call (its main thread has ended)";
            }
            StackTraceElement[] stack = t.getStackTrace();
            int u = firstUserFrame(stack);
            if (u > 0 && isMpirunjClass(stack[u - 1].getClassName())) {
                // e.g. Request.await or Request.waitAll: not bracketed, but still a wait in mpirun-j
                StackTraceElement callee = stack[u - 1];
                String cls = callee.getClassName().substring(callee.getClassName().lastIndexOf('.') + 1);
                return "in " + cls + "." + callee.getMethodName() + ", called at " + format(stack[u]);
            }
            return "not in an MPI call" + (u < 0 ? "" : ", at " + format(stack[u]));
        }
        StringBuilder sb = new StringBuilder(c.op).append('(');
        boolean first = true;
        if (c.peerName != null) {
            sb.append(c.peerName).append('=').append(c.peer == Comm.ANY_SOURCE ? "ANY_SOURCE" : String.valueOf(c.peer));
            first = false;
        }
        if (c.tag != NO_PEER) {
            sb.append(first ? "" : ", ").append("tag=").append(c.tag == Comm.ANY_TAG ? "ANY_TAG" : String.valueOf(c.tag));
        }
        sb.append(')');
        if (c.comm != null) {
            sb.append(" on ").append(commName(c.comm));
        }
        double seconds = (System.nanoTime() - c.startNs) / (double) TimeUnit.SECONDS.toNanos(1);
        sb.append(String.format(java.util.Locale.ROOT, " for %.1f s", seconds));
        String where = userFrame(c.thread);
        if (where != null) {
            sb.append(", called at ").append(where);
        }
        return sb.toString();
    }

    private static String commName(Comm comm) {
        if (comm instanceof CommImpl && ((CommImpl) comm).isWorld()) {
            return "world";
        }
        return "a communicator of " + comm.size() + " ranks (rank " + comm.rank() + " in it)";
    }

    /** The first frame of {@code t} outside mpirun-j's runtime and the JDK, or null. */
    static String userFrame(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        int u = firstUserFrame(stack);
        return u < 0 ? null : format(stack[u]);
    }

    /** {@code pkg.Class.method(File.java:12)}, without the class loader and module names. */
    static String format(StackTraceElement f) {
        String where = f.getFileName() == null ? "Unknown Source"
                : f.getLineNumber() >= 0 ? f.getFileName() + ":" + f.getLineNumber() : f.getFileName();
        return f.getClassName() + "." + f.getMethodName() + "(" + where + ")";
    }

    private static int firstUserFrame(StackTraceElement[] stack) {
        for (int i = 0; i < stack.length; i++) {
            if (isUserClass(stack[i].getClassName())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * False for the JDK, the libraries a rank runs mpirun-j on (Netty, protobuf, Caffeine, Jackson, slf4j) and
     * mpirun-j's own packages (the API, runtime, collectives, launcher): a rank choosing its algorithm inside a
     * Caffeine cache's compute was reported as "called at" Caffeine's lambda instead of the program's line.
     */
    public static boolean isUserClass(String c) {
        if (isCompatClass(c)) {
            return false; // the mpi package: Open MPI's Java API, ours; the program's line is the one that called it
        }
        if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("io.netty.")
                || c.startsWith("com.google.protobuf.") || c.startsWith("com.github.benmanes.caffeine.")
                || c.startsWith("com.fasterxml.jackson.") || c.startsWith("org.slf4j.")) {
            return false;
        }
        if (c.startsWith("io.mpirunj.")) {
            String rest = c.substring("io.mpirunj.".length());
            return rest.indexOf('.') >= 0 && !rest.startsWith("runtime.") && !rest.startsWith("collectives.")
                    && !rest.startsWith("fabric.") && !rest.startsWith("launcher.");
        }
        return true;
    }

    /** A class of mpirun-j's API, runtime or {@code mpi} package (where a wait seen from outside is an MPI call). */
    private static boolean isMpirunjClass(String c) {
        return c.startsWith("io.mpirunj.") || isCompatClass(c);
    }

    /** A class of the {@code mpi} package itself (not of a sub-package), nested and lambda classes included. */
    private static boolean isCompatClass(String c) {
        return c.startsWith("mpi.") && c.indexOf('.', "mpi.".length()) < 0;
    }
}
