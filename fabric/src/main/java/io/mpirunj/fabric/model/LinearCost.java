package io.mpirunj.fabric.model;

/**
 * A cost linear in the message size: {@code constant + perByte * m}. Written {@code 20+0.02m},
 * or {@code 20} when size-independent, or {@code 0.02m} without a constant.
 */
public record LinearCost(double constant, double perByte) {

    public LinearCost {
        Numbers.requireFiniteNonNegative("constant", constant);
        Numbers.requireFiniteNonNegative("perByte", perByte);
    }

    public static LinearCost of(double constant) {
        return new LinearCost(constant, 0);
    }

    public double at(long bytes) {
        return constant + perByte * bytes;
    }

    /** Canonical text: {@code 20}, {@code 20+0.02m}, {@code 0.02m}. */
    @Override
    public String toString() {
        if (perByte == 0) {
            return Numbers.format(constant);
        }
        String slope = Numbers.format(perByte) + "m";
        return constant == 0 ? slope : Numbers.format(constant) + "+" + slope;
    }
}
