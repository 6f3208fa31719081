package io.mpirunj.runtime.spi;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an algorithm needs or does, as the catalogue records it: shown by {@code --list-algorithms},
 * used by sweeps (which skip algorithms that need a fabric), by rules files (a segment size only for
 * {@link #SEGMENTED} ones) and by {@code auto} (which simulates only {@link #SCHEDULE} algorithms).
 */
public enum AlgorithmTrait {
    /** Built from a schedule the simulator can evaluate (and {@code mpirun-j schedule} can print). */
    SCHEDULE,
    /** Plans with the job's cost model ({@code --model}); every rank must see the same model. */
    NEEDS_MODEL,
    /** Plans with where ranks sit: runs only with {@code --fabric} (and {@code --placement}). */
    PLACEMENT_AWARE,
    /** Needs a star-graph fabric with one rank per node. */
    STAR_FABRIC,
    /** Needs a mesh, torus or hypercube fabric. */
    MESH_FABRIC,
    /**
     * Needs a square N×N torus fabric and N² ranks (on another fabric it falls back to the default; forced without
     * any fabric, mpirun-j refuses it).
     */
    TORUS_FABRIC,
    /** Cuts the message into segments; a rules file may give the segment size. */
    SEGMENTED,
    /** Plans on a per-pair (heterogeneous) model; on a uniform one it plans on the unit matrix. */
    PAIR_MODEL,
    /** Meant for power-of-two rank counts (other counts take an extra step or fall back). */
    POWER_OF_TWO;

    /** Kebab-case, as listed: {@code needs-model}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** True when an algorithm with {@code traits} can only run on a job with a {@code --fabric}. */
    public static boolean needsFabric(Set<AlgorithmTrait> traits) {
        return traits.contains(PLACEMENT_AWARE) || traits.contains(STAR_FABRIC) || traits.contains(MESH_FABRIC)
                || traits.contains(TORUS_FABRIC);
    }

    /** "schedule, needs-model" (in declaration order), or "" for none. */
    public static String labels(Set<AlgorithmTrait> traits) {
        return traits.stream().sorted().map(AlgorithmTrait::label).collect(Collectors.joining(", "));
    }
}
