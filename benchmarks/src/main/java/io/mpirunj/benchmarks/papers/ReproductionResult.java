package io.mpirunj.benchmarks.papers;

import java.util.ArrayList;
import java.util.List;

/**
 * What a reproduction found: its rows, its pictures and free-text notes. Build with
 * {@link #builder()}.
 */
public record ReproductionResult(List<Check> checks, List<Figure> figures, List<String> notes) {

    public ReproductionResult {
        checks = List.copyOf(checks);
        figures = List.copyOf(figures);
        notes = List.copyOf(notes);
    }

    /** Rows whose reference value or stated property did not hold. */
    public long failures() {
        return checks.stream().filter(Check::failed).count();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects rows, figures and notes in order. */
    public static final class Builder {
        private final List<Check> checks = new ArrayList<>();
        private final List<Figure> figures = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        public Builder check(Check check) {
            checks.add(check);
            return this;
        }

        /** Adds {@link Check#exact}. */
        public Builder exact(String what, double paper, double ours, String note) {
            return check(Check.exact(what, paper, ours, note));
        }

        public Builder figure(Figure figure) {
            figures.add(figure);
            return this;
        }

        public Builder note(String note) {
            notes.add(note);
            return this;
        }

        public ReproductionResult build() {
            return new ReproductionResult(checks, figures, notes);
        }
    }
}
