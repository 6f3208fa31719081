package io.mpirunj.benchmarks.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.mesh.MeshMulticasts;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fabric pictures fed by the wormhole engine's routed simulations. */
class MeshFabricViewsTest {

    private static final CostModel MODEL = ModelSpec.parse("hold=20,end=55");

    @TempDir
    Path dir;

    @Test
    void optMeshPaperExampleIsDrawnWithTheEnginesPaths() throws Exception {
        Mesh mesh = (Mesh) Topology.parse("mesh:6x6");
        int[] nodeOf = Placement.parse("3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4", mesh, 8);
        Simulation sim = Simulator.event(MeshMulticasts.multicast("opt-mesh", 8, 0, 0, MODEL, mesh, nodeOf),
                WormholeNetwork.model(mesh, MODEL, NodeModel.ONE_PORT), nodeOf);
        FabricView view = MeshFabricViews.of("opt-mesh 6x6", sim, mesh, nodeOf);
        assertEquals(new FabricView.Coord(3, 2), view.nodes().get(0).at());
        assertEquals(FabricView.Role.SOURCE, view.nodes().get(0).role());
        assertEquals(7, view.routes().size());
        // (3,2) -> (4,4): first written coordinate first, as the engine routed it.
        assertEquals(List.of(new FabricView.Coord(3, 2), new FabricView.Coord(4, 2), new FabricView.Coord(4, 3),
                new FabricView.Coord(4, 4)), view.routes().get(0).hops());
        assertTrue(view.routes().stream().noneMatch(FabricView.Route::waited));
        Picture picture = SchedulePictures.fabric(view);
        PictureChecks.assertNonTrivialPng(picture.writePng(dir.resolve("opt-mesh.png")), 500, 500, 6);
        String svg = PictureChecks.assertSvg(picture.writeSvg(dir.resolve("opt-mesh.svg")));
        assertTrue(svg.contains("completion 130"));
        assertTrue(svg.contains("0 contention event(s)"));
    }

    @Test
    void contentionOnARandomPlacementIsMarked() throws Exception {
        Mesh mesh = Mesh.mesh(16, 16);
        int[] nodeOf = Placement.parse("random:1", mesh, 64);
        Simulation sim = Simulator.event(MeshMulticasts.multicast("opt-tree", 64, 0, 0, MODEL, mesh, nodeOf),
                WormholeNetwork.model(mesh, MODEL, NodeModel.ONE_PORT), nodeOf);
        assertFalse(sim.contentions().isEmpty());
        FabricView view = MeshFabricViews.of("opt-tree 16x16 random", sim, mesh, nodeOf);
        assertTrue(view.routes().stream().anyMatch(FabricView.Route::waited));
        BufferedImage image = PictureChecks.assertNonTrivialPng(
                SchedulePictures.fabric(view).writePng(dir.resolve("random.png")), 800, 800, 8);
        assertTrue(PictureChecks.hasColour(image, 0xD62728, 10), "no contention marker");
    }

    @Test
    void rejectsMoreThanTwoDimensions() {
        Mesh cube = Mesh.mesh(2, 2, 2);
        CostModel model = MODEL;
        int[] nodeOf = {0, 1};
        Simulation sim = Simulator.event(MeshMulticasts.multicast("opt-tree", 2, 0, 0, model, cube, nodeOf),
                WormholeNetwork.model(cube, model, NodeModel.ONE_PORT), nodeOf);
        assertThrows(IllegalArgumentException.class, () -> MeshFabricViews.of("cube", sim, cube, nodeOf));
    }
}
