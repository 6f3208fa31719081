/**
 * Sweeps: one OSU-style benchmark over every algorithm of its collective and several rank counts
 * ({@code mpirun-j bench osu_bcast -np 2,4,8 --coll bcast=all}), each a separate mpirun-j job
 * ({@link io.mpirunj.benchmarks.sweep.JobRunner}), with a progress bar on a terminal; the results go
 * to one CSV, a side-by-side table and PNG charts with one line per algorithm
 * ({@link io.mpirunj.benchmarks.sweep.Sweep}). Open MPI running the OSU C programs ({@code OSU_HOME})
 * and MPJ Express ({@code MPJ_HOME}) run the same sizes and rank counts when installed and appear as
 * extra series; when not, a {@code skipped: OSU_HOME not set (...)} line says so.
 */
package io.mpirunj.benchmarks.sweep;
