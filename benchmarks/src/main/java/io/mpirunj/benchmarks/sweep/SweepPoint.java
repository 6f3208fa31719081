package io.mpirunj.benchmarks.sweep;

import io.mpirunj.benchmarks.osu.OsuTable;

/**
 * One measured row of a sweep.
 *
 * @param runtime {@code mpirun-j}, {@code open-mpi} or {@code mpj-express}
 * @param algorithm the forced algorithm, or the other runtime's name for its default choice
 */
public record SweepPoint(String runtime, String algorithm, int np, OsuTable.Row row) {

    /** The series this point belongs to in tables and charts. */
    public String series() {
        return runtime.equals(Sweep.MPIRUN_J) ? algorithm : runtime;
    }
}
