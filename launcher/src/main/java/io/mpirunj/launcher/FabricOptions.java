package io.mpirunj.launcher;

import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.Fabric;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.runtime.fabric.FabricFaults;
import java.util.List;

/**
 * The emulated fabric's options, {@code --fabric}, {@code --placement}, {@code --fabric-params},
 * {@code --fabric-time-scale} and {@code --fabric-fault}, checked one by one so that a problem names the option
 * as it was typed: {@code --fabric-fault 'drop:0/1-0/9': node address '0/9' out of range on mesh:2x2 (...)}.
 * The run command and {@code calibrate} share it.
 */
public final class FabricOptions {

    private FabricOptions() {
    }

    /**
     * The emulation these options ask for.
     *
     * @param scale  {@code --fabric-time-scale}, null for the default
     * @param faults {@code --fabric-fault}, once per fault
     * @throws IllegalArgumentException a one-line message that starts with the option at fault
     */
    public static FabricEmulation emulation(String fabric, String placement, String params, Double scale,
            List<String> faults, int size) {
        Topology topology;
        try {
            topology = Topology.parse(fabric.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--fabric " + fabric + ": " + e.getMessage());
        }
        try {
            Placement.parse(placement == null ? "identity" : placement.trim(), topology, size);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--fabric " + fabric + (placement == null ? "" : " --placement "
                    + placement) + ": " + e.getMessage());
        }
        try {
            Fabric.network(topology, params.trim(), NodeModel.ONE_PORT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--fabric-params " + params + ": " + e.getMessage());
        }
        double micros = scale == null ? FabricEmulation.DEFAULT_MICROS_PER_UNIT : scale;
        if (!(micros > 0) || Double.isInfinite(micros)) {
            throw new IllegalArgumentException("--fabric-time-scale " + scale
                    + " (expected: microseconds per model unit, a number > 0)");
        }
        for (String fault : faults) {
            FabricFaults.parse(fault, topology, "--fabric-fault", FabricFaults.ONE_FORM);
        }
        return FabricEmulation.of(fabric.trim(), placement, params, micros, String.join(";", faults), size);
    }
}
