package io.mpirunj.collectives.catalogue;

import io.mpirunj.runtime.spi.CollRules;
import java.util.List;

/**
 * Built-in size/rank-count thresholds, consulted after a rules file and {@code auto} and before the
 * default (Open MPI's "fixed" decision). Each rule names the measurement behind it.
 */
final class Thresholds {
    static final List<CollRules.Rule> RULES = List.of();

    private Thresholds() {
    }
}
