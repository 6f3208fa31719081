package io.mpirunj.launcher.calibrate;

/**
 * Least-squares line y = a + b·x with its coefficient of determination r² (1 = a perfect line; with
 * one point or constant y, r² is 1 when the line passes through every point).
 */
public record LinearFit(double a, double b, double r2) {

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
        double b = sxx == 0 ? 0 : sxy / sxx;
        double a = my - b * mx;
        double ssRes = 0;
        for (int i = 0; i < n; i++) {
            double e = y[i] - (a + b * x[i]);
            ssRes += e * e;
        }
        double r2 = syy == 0 ? (ssRes == 0 ? 1 : 0) : 1 - ssRes / syy;
        return new LinearFit(a, b, r2);
    }

    /** The line at {@code x}. */
    public double at(double x) {
        return a + b * x;
    }
}
