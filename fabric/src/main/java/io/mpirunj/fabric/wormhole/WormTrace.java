package io.mpirunj.fabric.wormhole;

/**
 * What happened to one message in a {@link WormholeNetwork} run.
 *
 * <p>{@code channels} is the full path: the injection channel, the link channels, the ejection
 * channel (k = channels.length). {@code acquired[i]} / {@code released[i]} bound the interval
 * during which channel i was held (see {@link WormholeNetwork} for the exact intervals of each
 * mode). {@code tail} is when the tail flit left the network (flit mode; in cost-model mode
 * the end of the occupancy), {@code delivery} when the receiver held the data.
 */
public record WormTrace(int message, int src, int dst, long bytes, long flits, int[] nodes, int[] channels,
                        double start, double[] acquired, double[] released, double tail, double delivery,
                        double waited) {

    /** k: channels on the path, injection and ejection included. */
    public int k() {
        return channels.length;
    }
}
