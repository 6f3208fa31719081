package io.mpirunj.launcher.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.launcher.hosts.Placement.MapBy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementTest {
    private static final List<Host> HOSTS = List.of(new Host("a", 2), new Host("b", 3), new Host("c", 1));

    private static List<String> nodes(Placement p) {
        List<String> n = new ArrayList<>();
        for (int r = 0; r < p.size(); r++) {
            n.add(p.hostOf(r).name());
        }
        return n;
    }

    @Test
    void bySlotFillsEachHostInTurn() {
        Placement p = Placement.of(HOSTS, 6, MapBy.SLOT, false);
        assertEquals(List.of("a", "a", "b", "b", "b", "c"), nodes(p));
        assertEquals(List.of(2, 3, 4), p.ranksOn(1));
        assertEquals(1, p.localRank(3));
        assertEquals(3, p.localSize(3));
        assertEquals("a: ranks 0-1; b: ranks 2-4; c: ranks 5", p.describe());
        assertEquals(List.of("a", "a", "b"), nodes(Placement.of(HOSTS, 3, MapBy.SLOT, false)));
    }

    @Test
    void byNodeGoesRoundTheHostsSkippingFullOnes() {
        assertEquals(List.of("a", "b", "c", "a", "b", "b"), nodes(Placement.of(HOSTS, 6, MapBy.NODE, false)));
        assertEquals(List.of("a", "b", "c", "a"), nodes(Placement.of(HOSTS, 4, MapBy.NODE, false)));
    }

    @Test
    void moreRanksThanSlotsNeedsOversubscribe() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Placement.of(HOSTS, 7, MapBy.SLOT, false));
        assertEquals("-np 7 is more than the 6 slots of 3 hosts (add slots, or --oversubscribe)", e.getMessage());
        assertEquals(List.of("a", "a", "b", "b", "b", "c", "a", "a"), nodes(Placement.of(HOSTS, 8, MapBy.SLOT, true)));
        assertEquals(List.of("a", "b", "c", "a", "b", "b", "a"), nodes(Placement.of(HOSTS, 7, MapBy.NODE, true)));
    }

    @Test
    void mapByParsing() {
        assertEquals(MapBy.NODE, MapBy.parse("node"));
        assertEquals(MapBy.SLOT, MapBy.parse("SLOT"));
        assertEquals("--map-by core (expected: slot or node)",
                assertThrows(IllegalArgumentException.class, () -> MapBy.parse("core")).getMessage());
    }

    @Test
    void rankRanges() {
        assertEquals("0-3, 8, 10-11", Ranges.of(List.of(0, 1, 2, 3, 8, 10, 11)));
        assertEquals("4", Ranges.of(List.of(4)));
    }
}
