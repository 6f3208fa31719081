package io.mpirunj.benchmarks.papers;

/**
 * How a reproduction should run.
 *
 * @param quick trim sweeps to what CI can afford (the whole report well under a minute); the
 *              reference values are checked in full either way
 */
public record RunOptions(boolean quick) {
}
