package io.mpirunj.fabric.model;

import java.math.BigDecimal;

/** Canonical number text shared by model specs and exports. */
public final class Numbers {

    private Numbers() {
    }

    /**
     * Shortest plain text for a finite double: integral values print without a fraction
     * ({@code 130}, not {@code 130.0}); others in plain decimal without trailing zeros
     * ({@code 0.02}, never {@code 2.0E-2}).
     */
    public static String format(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("value=" + value + " (expected: a finite number)");
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /**
     * Checks a model parameter.
     *
     * @return {@code value}
     * @throws IllegalArgumentException {@code name=value (expected: finite, >= 0)} when it is
     *                                  negative, infinite or NaN
     */
    public static double requireFiniteNonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected: finite, >= 0)");
        }
        return value;
    }
}
