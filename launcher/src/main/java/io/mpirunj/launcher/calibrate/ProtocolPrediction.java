package io.mpirunj.launcher.calibrate;

import io.mpirunj.fabric.wormhole.WormholeNetwork;

/**
 * What the emulated fabric's own engine predicts for the calibration protocol of
 * {@link CalibrationProgram}, message by message on the same nodes: t_end = half the ping-pong between
 * ranks 0 and 1, and t_hold = (T(k) - T(1)) / (k - 1) of the back-to-back sends. In model units.
 */
final class ProtocolPrediction {
    private final WormholeNetwork network;
    private final int[] nodeOf;

    ProtocolPrediction(WormholeNetwork network, int[] nodeOf) {
        this.network = network;
        this.nodeOf = nodeOf;
    }

    double tEnd(long m) {
        WormholeNetwork.FabricRun run = network.open();
        run.inject(0, nodeOf[0], nodeOf[1], m, 0);
        double there = delivery(run, 0);
        run.inject(1, nodeOf[1], nodeOf[0], m, there);
        return delivery(run, 1) / 2;
    }

    double tHold(long m, int k) {
        return (backToBack(m, k) - backToBack(m, 1)) / (k - 1);
    }

    /** T(j): rank 0 sends to 1..j (one port: t_send apart), rank j answers with an empty message. */
    private double backToBack(long m, int j) {
        WormholeNetwork.FabricRun run = network.open();
        double start = 0;
        for (int i = 1; i <= j; i++) {
            run.inject(i - 1, nodeOf[0], nodeOf[i], m, start);
            start += network.sendGap(nodeOf[0], nodeOf[i], m);
        }
        double last = delivery(run, j - 1);
        run.inject(j, nodeOf[j], nodeOf[0], 0, last);
        return delivery(run, j);
    }

    /** Runs until message {@code id} is delivered; its delivery time. */
    private static double delivery(WormholeNetwork.FabricRun run, int id) {
        while (true) {
            int got = run.takeDelivery();
            if (got == id) {
                return run.trace(id).delivery();
            }
        }
    }
}
