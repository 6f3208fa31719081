package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * The all-to-all algorithms for an N×N torus, by name: {@code sem}, {@code sem-cell4},
 * {@code diagonal} and {@code direct}. Schedule rank = torus node id = row·N + column.
 */
public final class TorusAlltoalls {

    /** An algorithm: its name, one line of description, and its builder. */
    public record Entry(String name, String description, Builder builder) {
    }

    /** Builds the schedule for an n×n torus with {@code blockBytes} per block. */
    @FunctionalInterface
    public interface Builder {
        Schedule build(int n, long blockBytes);
    }

    private static final List<Entry> ALL = List.of(
            new Entry(SemAlltoall.NAME, "SEM (paper 001): split into 2x2 cells, exchange among masters, merge; "
                    + "N/4+5 start-ups", SemAlltoall::build),
            new Entry(SemAlltoall.NAME_CELL4, "SEM with 4x4 basic cells: N/8+8 start-ups, more buffer memory",
                    (n, bytes) -> SemAlltoall.build(n, bytes, 4)),
            new Entry(DiagonalAlltoall.NAME, "diagonal propagation, Tseng/Suh-style indirect baseline: N/2+2 "
                    + "start-ups", DiagonalAlltoall::build),
            new Entry(DirectAlltoall.NAME, "direct pairwise exchange: N^2-1 start-ups, no buffering",
                    DirectAlltoall::build));

    private TorusAlltoalls() {
    }

    public static List<Entry> all() {
        return ALL;
    }

    public static List<String> names() {
        return ALL.stream().map(Entry::name).toList();
    }

    /** The entry called {@code name}; one-line {@link IllegalArgumentException} otherwise. */
    public static Entry entry(String name) {
        for (Entry e : ALL) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown torus all-to-all '" + name + "' (expected one of: "
                + String.join(", ", names()) + ")");
    }

    public static Schedule build(String name, int n, long blockBytes) {
        return entry(name).builder().build(n, blockBytes);
    }

    /** A one-line {@link IllegalArgumentException} when the torus side {@code n} is below {@code min}. */
    static void requireSide(int n, int min) {
        if (n < min) {
            throw new IllegalArgumentException("torus side " + n + " (expected: >= " + min + ")");
        }
    }

    /** The side N of a torus with {@code ranks} = N² nodes, or -1 when {@code ranks} is not a square. */
    public static int side(int ranks) {
        int n = (int) Math.round(Math.sqrt(ranks));
        return n >= 1 && n * n == ranks ? n : -1;
    }
}
