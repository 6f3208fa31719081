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
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
        }
        double slope = sxx == 0 ? 0 : sxy / sxx;
        double intercept = my - slope * mx;
        double ssRes = 0;
        double maxResidual = 0;
        for (int i = 0; i < n; i++) {
            double e = y[i] - (intercept + slope * x[i]);
            ssRes += e * e;
            maxResidual = Math.max(maxResidual, Math.abs(e));
        }
        double r2 = syy == 0 ? (ssRes == 0 ? 1 : 0) : 1 - ssRes / syy;
        return new LinearFit(intercept, slope, r2, maxResidual);
    }
}
