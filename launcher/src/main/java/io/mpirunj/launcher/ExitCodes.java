package io.mpirunj.launcher;

/**
 * The exit statuses of {@code mpirun-j} that the launcher itself decides (the others are the
 * ranks' own). The table is printed by {@code --help} ({@link #HELP}).
 *
 * <pre>
 *   0        every rank exited 0
 *   N        the first rank to fail exited with N (System.exit(N), or Comm.abort(N))
 *   1        the first rank to fail threw an exception (its stack trace is on stderr, tagged
 *            [rank R]); or the job could not be started
 *   128+S    the first rank to fail was killed by signal S (e.g. 137 = SIGKILL)
 *   2        bad usage: nothing was started
 *   124      --timeout (or MPIEXEC_TIMEOUT) expired; stderr says what each rank was doing
 *   130      the launcher was interrupted
 *   141      the launcher's stdout was closed (whatever read it ended, e.g. | head): the ranks were stopped
 * </pre>
 *
 * A status the operating system cannot carry (a {@code Comm.abort} code outside 0..255) is reduced
 * modulo 256, and to 1 when that would make a failure look like success ({@link #ofCode}).
 */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILED = 1;
    /** As coreutils {@code timeout}: the job ran out of time. */
    static final int TIMEOUT = 124;
    static final int INTERRUPTED = 130;
    /** 128 + SIGPIPE, as a shell reports a writer whose pipe's reader ended: nobody reads the job's stdout. */
    static final int STDOUT_CLOSED = 141;
    /** Death by signal S is reported as {@code SIGNAL_BASE + S}, as shells do. */
    static final int SIGNAL_BASE = 128;

    /** The exit-status table for {@code --help}. */
    static final String[] HELP = {
        "Exit status:",
        "  0      every rank exited 0",
        "  N      the first rank to fail exited with N (System.exit(N) or",
        "         Comm.abort(N)); the other ranks are then stopped",
        "  1      the first rank to fail threw an exception (its stack trace is on",
        "         stderr, tagged [rank R]), or ended between Mpi.init and",
        "         Mpi.finish with status 0 (with --threads: a System.exit before",
        "         every rank is in Mpi.finish), or the job could not be started",
        "  128+S  the first rank to fail was killed by signal S (137 = kill -9)",
        "  2      bad usage; nothing was started",
        "  124    --timeout / MPIEXEC_TIMEOUT expired; stderr lists the ranks still",
        "         running and the MPI call each was in",
        "  130    mpirun-j was interrupted",
        "  141    mpirun-j's stdout was closed (what read it ended, e.g. | head);",
        "         the ranks were stopped",
        "When a rank fails, the others see their MPI calls that depend on it fail",
        "(RankFailedException naming it) and are stopped within seconds.",
    };

    private ExitCodes() {
    }

    /** {@code code} as an exit status: modulo 256, but never 0 for a non-zero code. */
    static int ofCode(int code) {
        int s = code & 0xFF;
        return s == 0 && code != 0 ? FAILED : s;
    }
}
