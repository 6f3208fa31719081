package io.mpirunj.collectives.sim;

import java.util.List;

/**
 * One simulated message. Times are model time units: {@code start} is when the send started,
 * {@code end} when the receiver held the data (for a dropped RECV_FIRST_OF copy: when it arrived
 * and was discarded). {@code step} is the schedule's step annotation of the send.
 *
 * <p>On a fabric network ({@code io.mpirunj.fabric.wormhole}) {@code path} is the list of
 * network nodes the message went through (both ends included) and {@code waited} the time it
 * waited for busy channels (or, in cost-model mode, its longest detected overlap); on a plain
 * cost model {@code path} is empty and {@code waited} 0.
 */
public record Message(int src, int dst, double start, double end, int step, long bytes, boolean dropped,
                      List<Integer> path, double waited) {

    public Message {
        path = List.copyOf(path);
    }

    /** A message on a network without topology (no path, no waiting). */
    public Message(int src, int dst, double start, double end, int step, long bytes, boolean dropped) {
        this(src, dst, start, end, step, bytes, dropped, List.of(), 0);
    }
}
