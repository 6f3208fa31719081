package io.mpirunj.collectives.sim;

/**
 * One simulated message. Times are model time units: {@code start} is when the send started,
 * {@code end} when the receiver held the data (for a dropped RECV_FIRST_OF copy: when it arrived
 * and was discarded). {@code step} is the schedule's step annotation of the send.
 */
public record Message(int src, int dst, double start, double end, int step, long bytes, boolean dropped) {
}
