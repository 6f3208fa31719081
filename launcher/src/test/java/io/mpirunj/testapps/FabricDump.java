package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;

/** Each rank prints the fabric and placement its collectives see: {@code rank R fabric=F placement=P}. */
public final class FabricDump {
    private FabricDump() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        RuntimeConfig config = CollChannel.of(world).config();
        System.out.println("rank " + world.rank() + " fabric=" + config.fabricSpec() + " placement=" + config.placementSpec());
        Mpi.finish();
    }
}
