package io.mpirunj.benchmarks.papers;

import java.util.Objects;

/**
 * One row of a reproduction: what is compared, the paper's value, ours and the verdict.
 *
 * @param what       what the row is about, e.g. {@code "t[9]"}
 * @param paperValue the paper's value as printed (or the property it states); "—" when none
 * @param ourValue   what we computed
 * @param verdict    {@link Verdict#MATCH}, {@link Verdict#MISMATCH} or {@link Verdict#INFO}
 * @param note       how ours was obtained, caveats; may be empty
 */
public record Check(String what, String paperValue, String ourValue, Verdict verdict, String note) {

    /** Whether a row matched. {@link #INFO} rows carry no reference and never fail. */
    public enum Verdict {
        MATCH("✓"),
        MISMATCH("✗"),
        INFO("·");

        private final String mark;

        Verdict(String mark) {
            this.mark = mark;
        }

        public String mark() {
            return mark;
        }
    }

    public Check {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(verdict, "verdict");
        paperValue = paperValue == null || paperValue.isEmpty() ? "—" : paperValue;
        ourValue = ourValue == null || ourValue.isEmpty() ? "—" : ourValue;
        note = note == null ? "" : note;
    }

    /**
     * A model-time reference value: matches when {@code ours == paper} (to 1e-9, for
     * floating-point sums of integral parameters).
     */
    public static Check exact(String what, double paper, double ours, String note) {
        return new Check(what, format(paper), format(ours), same(paper, ours) ? Verdict.MATCH : Verdict.MISMATCH, note);
    }

    /** A property the paper states (e.g. "OPT-tree ≤ Fibonacci for every K"), checked by us. */
    public static Check property(String what, String statement, String observed, boolean holds, String note) {
        return new Check(what, statement, observed, holds ? Verdict.MATCH : Verdict.MISMATCH, note);
    }

    /** A value we report without a reference to compare with. */
    public static Check info(String what, String ours, String note) {
        return new Check(what, "—", ours, Verdict.INFO, note);
    }

    public boolean failed() {
        return verdict == Verdict.MISMATCH;
    }

    static boolean same(double a, double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    }

    /** Integral values without a fraction ({@code 130}), others in plain decimal. */
    public static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "∞" : "-∞";
        }
        return io.mpirunj.fabric.model.Numbers.format(value);
    }
}
