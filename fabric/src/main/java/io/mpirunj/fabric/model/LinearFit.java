package io.mpirunj.fabric.model;

/**
 * Least-squares line y = intercept + slope·x, e.g. a measured t(m) = t0 + b·m, with its coefficient of
 * determination r² (1 = a perfect line; with one point or constant y, r² is 1 when the line passes
 * through every point) and its largest |residual|. With one point or constant x the slope is 0.
 */
public record LinearFit(double intercept, double slope, double r2, double maxResidual) {

    public static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length || x.length == 0) {
            throw new IllegalArgumentException("fit needs as many x as y values, at least one (got " + x.length + " and "
                    + y.length + ")");
        }
        int n = x.length;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
        }
        double slope = sxx == 0 ? 0 : sxy / sxx;
        return line(x, y, my - slope * mx, slope);
    }

    /**
     * The least-squares line with no negative intercept or slope, for a cost (a model has no negative costs): the
     * plain fit when it has none, else the better of the best line through the origin and the best constant, each
     * with its own r² and residual against the points (clamping the plain fit's coefficients kept its r², which
     * described another line).
     */
    public static LinearFit nonNegative(double[] x, double[] y) {
        LinearFit plain = of(x, y);
        if (!(plain.intercept() < 0 || plain.slope() < 0)) {
            return plain; // also a fit of values not measured (NaN), which says so
        }
        double sxx = 0;
        double sxy = 0;
        double sy = 0;
        for (int i = 0; i < x.length; i++) {
            sxx += x[i] * x[i];
            sxy += x[i] * y[i];
            sy += y[i];
        }
        LinearFit throughOrigin = line(x, y, 0, sxx == 0 ? 0 : Math.max(0, sxy / sxx));
        LinearFit constant = line(x, y, Math.max(0, sy / x.length), 0);
        return residualSquares(x, y, throughOrigin) <= residualSquares(x, y, constant) ? throughOrigin : constant;
    }

    /** The line intercept + slope·x with its r² and largest |residual| against the points. */
    private static LinearFit line(double[] x, double[] y, double intercept, double slope) {
        double my = 0;
        for (double v : y) {
            my += v;
        }
        my /= y.length;
        double syy = 0;
        double maxResidual = 0;
        for (int i = 0; i < x.length; i++) {
            syy += (y[i] - my) * (y[i] - my);
            maxResidual = Math.max(maxResidual, Math.abs(y[i] - (intercept + slope * x[i])));
        }
        double ssRes = residualSquares(x, y, new LinearFit(intercept, slope, 0, 0));
        return new LinearFit(intercept, slope, syy == 0 ? (ssRes == 0 ? 1 : 0) : 1 - ssRes / syy, maxResidual);
    }

    private static double residualSquares(double[] x, double[] y, LinearFit f) {
        double ss = 0;
        for (int i = 0; i < x.length; i++) {
            double e = y[i] - (f.intercept() + f.slope() * x[i]);
            ss += e * e;
        }
        return ss;
    }
}
