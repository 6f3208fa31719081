package io.mpirunj.runtime.spi;

/**
 * What selection picked for one call, and why.
 *
 * @param algorithm the algorithm to run
 * @param source    which level of the order chose it
 * @param predicted {@code auto}'s predicted completion in the model's unit, else NaN
 * @param unit      the model's time unit for {@code predicted} (null unless {@code auto})
 */
public record Selection(CollectiveAlgorithm algorithm, Source source, double predicted, String unit) {

    /** The levels of the choice, highest first (Open MPI's order, with the model between rules and defaults). */
    public enum Source {
        /** {@code --coll op=name} or {@code Comm.withCollectives}. */
        FORCED,
        /** A rule of {@code --coll-rules FILE}. */
        RULES,
        /** {@code op=auto}: the model's fastest. */
        AUTO,
        /** {@code op=auto}, a call of its live trial among the model's shortlist ({@code --coll-tune}). */
        AUTO_TRIAL,
        /** {@code op=auto}: the shortlisted candidate its live trial measured fastest. */
        AUTO_MEASURED,
        /** A built-in size/rank-count threshold. */
        THRESHOLD,
        /** The registered algorithm of highest priority. */
        DEFAULT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public Selection(CollectiveAlgorithm algorithm, Source source) {
        this(algorithm, source, Double.NaN, null);
    }

    /** The same choice, as {@code source} chose it. */
    public Selection from(Source source) {
        return new Selection(algorithm, source, predicted, unit);
    }
}
