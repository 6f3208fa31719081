package io.mpirunj.benchmarks.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.benchmarks.render.FabricView.Coord;
import io.mpirunj.benchmarks.render.FabricView.Node;
import io.mpirunj.benchmarks.render.FabricView.Role;
import io.mpirunj.benchmarks.render.FabricView.Route;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FabricPictureTest {

    @TempDir
    Path dir;

    private static Coord c(int x, int y) {
        return new Coord(x, y);
    }

    /**
     * The paper-000 6x6 example drawn by hand: source (3,2), destinations (1,5) (2,1) (3,4)
     * (4,3) (4,4) (5,1) (5,4); the first two sends of OPT-mesh plus a few others, one of them
     * marked as having waited (to exercise the contention marker).
     */
    static FabricView sixBySix() {
        List<Coord> members = List.of(c(3, 2), c(1, 5), c(2, 1), c(3, 4), c(4, 3), c(4, 4), c(5, 1), c(5, 4));
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            nodes.add(new Node(members.get(i), i == 0 ? Role.SOURCE : Role.DESTINATION, Integer.toString(i)));
        }
        List<Route> routes = List.of(
                Route.of(1, FabricView.XY.route(c(3, 2), c(4, 4))),
                Route.of(2, FabricView.XY.route(c(3, 2), c(3, 4))),
                Route.of(2, FabricView.XY.route(c(4, 4), c(5, 1))),
                new Route(3, FabricView.XY.route(c(3, 2), c(2, 1)), true, 1, "waited 4"),
                Route.of(3, FabricView.XY.route(c(3, 4), c(4, 3))),
                Route.of(3, FabricView.XY.route(c(4, 4), c(5, 4))),
                Route.of(4, FabricView.XY.route(c(2, 1), c(1, 5))));
        return new FabricView("6x6 mesh, hand-made example", "source (3,2), XY routing", 6, 6, false, nodes, routes);
    }

    @Test
    void sixBySixMeshPicture() throws Exception {
        Picture picture = SchedulePictures.fabric(sixBySix());
        BufferedImage image = PictureChecks.assertNonTrivialPng(picture.writePng(dir.resolve("fabric.png")), 500, 500, 6);
        assertTrue(PictureChecks.hasColour(image, 0xD62728, 10), "no red contention marker");
        assertTrue(PictureChecks.hasColour(image, 0x1F77B4, 10), "no step-1 route");
        String svg = PictureChecks.assertSvg(picture.writeSvg(dir.resolve("fabric.svg")));
        for (String expected : new String[] {"(3,2)", "(1,5)", "(5,4)", "step 1", "step 4", "header blocked (contention)",
                "waited 4", "source", "destination"}) {
            assertTrue(svg.contains(expected), "missing: " + expected);
        }
    }

    @Test
    void torusRoutesMayWrap() throws Exception {
        List<Route> routes = List.of(new Route(1, List.of(c(3, 0), c(0, 0), c(0, 3)), true, 0, ""));
        FabricView view = new FabricView("4x4 torus", "", 4, 4, true,
                List.of(new Node(c(3, 0), Role.SOURCE, "0"), new Node(c(0, 3), Role.DESTINATION, "1")), routes);
        PictureChecks.assertNonTrivialPng(SchedulePictures.fabric(view).writePng(dir.resolve("torus.png")), 400, 400, 4);
    }

    @Test
    void rejectsRoutesThatJump() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FabricView("bad", "", 4, 4,
                false, List.of(), List.of(Route.of(1, List.of(c(0, 0), c(2, 0))))));
        assertTrue(e.getMessage().contains("not neighbours"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FabricView("bad", "", 4, 4, false,
                List.of(new Node(c(4, 0), Role.SOURCE, "")), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new Route(1, List.of(c(0, 0), c(1, 0)), true, 2, ""));
        assertThrows(IllegalArgumentException.class, () -> new Route(1, List.of(c(0, 0), c(1, 0)), true, -2, ""));
    }

    @Test
    void routersAreDimensionOrdered() {
        assertEquals(List.of(c(3, 2), c(4, 2), c(4, 3), c(4, 4)), FabricView.XY.route(c(3, 2), c(4, 4)));
        assertEquals(List.of(c(3, 2), c(3, 3), c(3, 4), c(4, 4)), FabricView.YX.route(c(3, 2), c(4, 4)));
        assertEquals(List.of(c(1, 1)), FabricView.XY.route(c(1, 1), c(1, 1)));
    }

    @Test
    void viewOfASimulatedScheduleOnAPlacement() throws Exception {
        CostModel model = ModelSpec.parse("hold=20,end=55");
        Simulation sim = Simulator.event(MulticastAlgorithms.multicast("opt-tree", 8, 2, 0, model), model);
        List<Coord> placement = List.of(c(1, 5), c(2, 1), c(3, 2), c(3, 4), c(4, 3), c(4, 4), c(5, 1), c(5, 4));
        FabricView view = FabricView.of("opt-tree on a 6x6 mesh", sim, 6, 6, placement, FabricView.XY);
        assertEquals(7, view.routes().size());
        assertEquals(Role.SOURCE, view.nodes().get(2).role());
        String svg = SchedulePictures.fabric(view).toSvg();
        assertTrue(svg.contains("completion 130"), "subtitle should carry the completion");
        assertTrue(svg.contains("header blocked (contention): none"));
    }
}
