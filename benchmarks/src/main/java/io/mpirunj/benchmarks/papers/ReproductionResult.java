package io.mpirunj.benchmarks.papers;

import java.util.ArrayList;
import java.util.List;

/**
 * What a reproduction found: its rows, its pictures and free-text notes. Build with
 * {@link #builder()}.
 */
public record ReproductionResult(List<Check> checks, List<Figure> figures, List<String> notes,
                                 List<DataFile> data) {

    /**
     * A data file the report writes beside the figures as {@code <reproduction id>-<name>.csv}.
     *
     * @param name file-name stem, letters, digits, '-' and '_' only
     * @param csv  the file's text (a header line, then one line per row)
     */
    public record DataFile(String name, String csv) {
        public DataFile {
            if (name == null || !name.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("data file name='" + name + "' (expected: letters, digits, '-', '_')");
            }
            java.util.Objects.requireNonNull(csv, "csv");
        }
    }

    public ReproductionResult {
        checks = List.copyOf(checks);
        figures = List.copyOf(figures);
        notes = List.copyOf(notes);
        data = List.copyOf(data);
    }

    public ReproductionResult(List<Check> checks, List<Figure> figures, List<String> notes) {
        this(checks, figures, notes, List.of());
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
        private final List<DataFile> data = new ArrayList<>();

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

        /** A CSV file written beside the figures. */
        public Builder data(String name, String csv) {
            data.add(new DataFile(name, csv));
            return this;
        }

        public Builder note(String note) {
            notes.add(note);
            return this;
        }

        public ReproductionResult build() {
            return new ReproductionResult(checks, figures, notes, data);
        }
    }
}
