package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.MeshFabricViews;
import io.mpirunj.benchmarks.render.SchedulePictures;
import io.mpirunj.collectives.mesh.MeshMulticasts;
import io.mpirunj.collectives.mesh.OptMeshMulticast;
import io.mpirunj.collectives.mesh.UMeshMulticast;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;

/**
 * Paper 000's 6×6 example (figures 7–9): source (3,2), destinations (1,5) (2,1) (3,4) (4,3) (4,4)
 * (5,1) (5,4), t_hold = 20, t_end = 55. OPT-mesh 130 and contention-free on the routed mesh;
 * U-mesh 165 (3 rounds × 55).
 */
final class OptMeshExample implements Reproduction {

    static final String PLACEMENT = "3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4";

    @Override
    public String id() {
        return "000-opt-mesh-6x6";
    }

    @Override
    public Paper paper() {
        return Paper.P000;
    }

    @Override
    public String title() {
        return "6×6 mesh example: OPT-mesh 130 vs U-mesh 165 (t_hold = 20, t_end = 55)";
    }

    @Override
    public String description() {
        return "The paper's worked example on mesh:6x6 with dimension-ordered routing. Both schedules are "
                + "evaluated event by event on the wormhole fabric in cost-model mode (the model's timing, every "
                + "message routed, channel overlaps reported as contention); U-mesh also in rounds, as the paper "
                + "counts it. OPT-mesh must be contention-free (the paper's theorem).";
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        ReproductionResult.Builder out = ReproductionResult.builder();
        Mesh mesh = (Mesh) Topology.parse("mesh:6x6");
        CostModel model = ModelSpec.parse("hold=20,end=55");
        int[] nodeOf = Placement.parse(PLACEMENT, mesh, 8);
        WormholeNetwork fabric = WormholeNetwork.model(mesh, model, NodeModel.ONE_PORT);

        Schedule optMesh = OptMeshMulticast.build(8, 0, 0, model, mesh, nodeOf);
        Simulation opt = Simulator.event(optMesh, fabric, nodeOf);
        out.exact("OPT-mesh multicast time", 130, opt.completion(), "= t[8]; Simulator.event on the fabric");
        out.check(Check.property("OPT-mesh contention", "none (theorem)", opt.contentions().size() + " event(s)",
                opt.contentions().isEmpty(), "channels held [s, s + t_hold) per message"));

        Schedule uMesh = UMeshMulticast.build(8, 0, 0, model, mesh, nodeOf);
        Simulation uRounds = Simulator.rounds(uMesh, model);
        Simulation uEvent = Simulator.event(uMesh, fabric, nodeOf);
        out.exact("U-mesh, ROUNDS evaluation", 165, uRounds.completion(), "3 rounds × t_end");
        out.exact("U-mesh, EVENT evaluation on the fabric", 165, uEvent.completion(), "");

        Schedule optTree = MeshMulticasts.multicast("opt-tree", 8, 0, 0, model, mesh, nodeOf);
        Simulation tree = Simulator.event(optTree, fabric, nodeOf);
        out.check(Check.info("OPT-tree (placement-oblivious) on the same placement",
                Check.format(tree.completion()) + ", " + tree.contentions().size() + " contention event(s)",
                "same t[8], but its routes may share channels"));

        java.util.function.IntFunction<String> address = r -> MeshFabricViews.coord(mesh, nodeOf[r]).toString();
        out.figure(new Figure("opt-mesh-fabric", "OPT-mesh on the 6×6 mesh: every message's XY route, coloured by "
                + "step; no channel is shared by concurrent messages",
                SchedulePictures.fabric(MeshFabricViews.of("OPT-mesh, 6×6 mesh, source (3,2)", opt, mesh, nodeOf))));
        out.figure(new Figure("opt-mesh-tree", "OPT-mesh as a tree (node coordinates beside each rank)",
                SchedulePictures.tree(opt, address)));
        out.figure(new Figure("u-mesh-fabric", "U-mesh on the same mesh and placement",
                SchedulePictures.fabric(MeshFabricViews.of("U-mesh, 6×6 mesh, source (3,2)", uEvent, mesh, nodeOf))));
        out.figure(new Figure("opt-mesh-timing", "OPT-mesh timing diagram (t_hold = 20 busy bars, delivery at "
                + "t_end = 55)", SchedulePictures.timing(opt, model)));
        return out.build();
    }
}
