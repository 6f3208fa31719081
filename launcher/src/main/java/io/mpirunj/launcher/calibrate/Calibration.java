package io.mpirunj.launcher.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mpirunj.fabric.model.LinearFit;
import io.mpirunj.fabric.model.ModelFile;
import io.mpirunj.fabric.model.PairCostModel;
import io.mpirunj.runtime.fabric.FabricEmulation;
import java.util.Locale;

/**
 * One calibration's results: the medians (or minima) {@link CalibrationProgram} measured (µs of {@code wtime}), their
 * fits, LogP, and on an emulated fabric the same in model units beside the engine's prediction.
 */
record Calibration(long[] sizes, double[] tHold, double[] tEnd, double overhead, LinearFit holdFit, LinearFit endFit,
                   double microsPerUnit, double[] predictedHold, double[] predictedEnd, PairCostModel pairs) {

    static Calibration of(JsonNode raw, FabricEmulation emulation, int k) {
        long[] sizes = new long[raw.get("sizes").size()];
        double[] hold = new double[sizes.length];
        double[] end = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = raw.get("sizes").get(i).asLong();
            hold[i] = raw.get("tHoldNs").get(i).asDouble(Double.NaN) / 1000;
            end[i] = raw.get("tEndNs").get(i).asDouble() / 1000;
        }
        double overhead = raw.get("overheadNs").asDouble() / 1000;
        double[] x = new double[sizes.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = sizes[i];
        }
        LinearFit holdFit = LinearFit.nonNegative(x, hold);
        LinearFit endFit = LinearFit.nonNegative(x, end);
        double scale = Double.NaN;
        double[] pHold = null;
        double[] pEnd = null;
        if (emulation != null) {
            scale = emulation.microsPerUnit();
            ProtocolPrediction p = new ProtocolPrediction(emulation.network(), emulation.nodeOf());
            pHold = new double[sizes.length];
            pEnd = new double[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                pHold[i] = k > 1 ? p.tHold(sizes[i], k) : Double.NaN;
                pEnd[i] = p.tEnd(sizes[i]);
            }
        }
        PairCostModel pairs = raw.has("pairSmallNs") ? pairs(raw) : null;
        return new Calibration(sizes, hold, end, overhead, holdFit, endFit, scale, pHold, pEnd, pairs);
    }

    /** latency + m / bandwidth through the two pair ping-pongs (µs, bytes per µs). */
    private static PairCostModel pairs(JsonNode raw) {
        int n = raw.get("pairSmallNs").size();
        double small = raw.get("pairSmall").asDouble();
        double large = raw.get("pairLarge").asDouble();
        double[][] latency = new double[n][n];
        double[][] bandwidth = new double[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a == b) {
                    bandwidth[a][b] = 1;
                    continue;
                }
                double ts = raw.get("pairSmallNs").get(a).get(b).asDouble() / 1000;
                double tl = raw.get("pairLargeNs").get(a).get(b).asDouble() / 1000;
                // a larger message measured no slower (noise): treat the pair as latency-bound
                double bw = tl > ts ? (large - small) / (tl - ts) : 1e9;
                bandwidth[a][b] = bw;
                latency[a][b] = Math.max(0, ts - small / bw);
            }
        }
        return new PairCostModel(latency, bandwidth);
    }

    /** False at -np 2: t_hold needs back-to-back sends to two or more ranks, so only t_end was measured. */
    boolean holdMeasured() {
        return !Double.isNaN(holdFit.intercept());
    }

    boolean emulated() {
        return predictedEnd != null;
    }

    /** LogP: o = the measured send overhead, g = t_hold at 0 bytes, L = t_end at 0 bytes - 2o. */
    double logpO() {
        return overhead;
    }

    double logpG() {
        return Math.max(0, holdFit.intercept());
    }

    double logpL() {
        return Math.max(0, endFit.intercept() - 2 * overhead);
    }

    private double[] units(double[] us) {
        double[] u = new double[us.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = us[i] / microsPerUnit;
        }
        return u;
    }

    ObjectNode toJson() {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.set("sizes", m.valueToTree(sizes));
        root.set("tHold", CalibrateCommand.array(m, tHold));
        root.set("tEnd", CalibrateCommand.array(m, tEnd));
        ObjectNode fit = root.putObject("fit");
        fit.set("hold", CalibrateCommand.fit(m, holdFit));
        fit.set("end", CalibrateCommand.fit(m, endFit));
        ObjectNode logp = root.putObject("logp");
        logp.put("L", logpL());
        logp.put("o", logpO());
        if (holdMeasured()) {
            logp.put("g", logpG());
        } else {
            logp.putNull("g");
        }
        if (emulated()) {
            double[] x = doubles(sizes);
            ObjectNode mu = root.putObject("modelUnits");
            mu.put("microsPerUnit", microsPerUnit);
            mu.set("sizes", m.valueToTree(sizes));
            mu.set("tHold", CalibrateCommand.array(m, units(tHold)));
            mu.set("tEnd", CalibrateCommand.array(m, units(tEnd)));
            ObjectNode ufit = mu.putObject("fit");
            ufit.set("hold", CalibrateCommand.fit(m, LinearFit.nonNegative(x, units(tHold))));
            ufit.set("end", CalibrateCommand.fit(m, LinearFit.nonNegative(x, units(tEnd))));
            ObjectNode predicted = root.putObject("predicted");
            predicted.set("tHold", CalibrateCommand.array(m, predictedHold));
            predicted.set("tEnd", CalibrateCommand.array(m, predictedEnd));
        }
        return root;
    }

    private static double[] doubles(long[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    String table(String how) {
        StringBuilder sb = new StringBuilder();
        sb.append("calibrate ").append(how).append('\n');
        sb.append(emulated()
                ? String.format(Locale.ROOT, "%10s %12s %12s %14s %14s %14s %14s%n", "bytes", "t_hold(us)", "t_end(us)",
                        "t_hold(units)", "predicted", "t_end(units)", "predicted")
                : String.format(Locale.ROOT, "%10s %12s %12s%n", "bytes", "t_hold(us)", "t_end(us)"));
        for (int i = 0; i < sizes.length; i++) {
            if (emulated()) {
                sb.append(String.format(Locale.ROOT, "%10d %12s %12.2f %14s %14s %14.1f %14.1f%n", sizes[i],
                        cell(tHold[i], "%.2f"), tEnd[i], cell(tHold[i] / microsPerUnit, "%.1f"),
                        cell(predictedHold[i], "%.1f"), tEnd[i] / microsPerUnit, predictedEnd[i]));
            } else {
                sb.append(String.format(Locale.ROOT, "%10d %12s %12.2f%n", sizes[i], cell(tHold[i], "%.2f"), tEnd[i]));
            }
        }
        if (!holdMeasured()) {
            sb.append(String.format(Locale.ROOT, "fit (us, m bytes): t_end = %.4g + %.4g*m (r2 %.4f); t_hold needs -np 3 "
                    + "or more%n", endFit.intercept(), endFit.slope(), endFit.r2()));
            sb.append(String.format(Locale.ROOT, "LogP (us): L = %.4g, o = %.4g, g = n/a%n", logpL(), logpO()));
            sb.append("model: none (it needs t_hold)\n");
            return sb.toString();
        }
        sb.append(String.format(Locale.ROOT, "fit (us, m bytes): t_hold = %.4g + %.4g*m (r2 %.4f), t_end = %.4g + %.4g*m (r2 %.4f)%n",
                holdFit.intercept(), holdFit.slope(), holdFit.r2(), endFit.intercept(), endFit.slope(), endFit.r2()));
        sb.append(String.format(Locale.ROOT, "LogP (us): L = %.4g, o = %.4g, g = %.4g%n", logpL(), logpO(), logpG()));
        sb.append(String.format(Locale.ROOT, "model: hold=%s+%sm,end=%s+%sm%n", num(holdFit.intercept()), num(holdFit.slope()),
                num(endFit.intercept()), num(endFit.slope())));
        return sb.toString();
    }

    /** {@code v} in {@code format}, or n/a for a value not measured (t_hold at -np 2). */
    private static String cell(double v, String format) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.6g", Math.max(0, v));
    }

    /** The model file: the fits (never negative: {@link LinearFit#nonNegative}), LogP and the medians. */
    ModelFile.Document document(String source) {
        return new ModelFile.Document(ModelFile.FORMAT, "us",
                new ModelFile.Fit(holdFit.intercept(), holdFit.slope(), holdFit.r2()),
                new ModelFile.Fit(endFit.intercept(), endFit.slope(), endFit.r2()), 1,
                new ModelFile.LogP(logpL(), logpO(), logpG()), sizes, tHold, tEnd, source);
    }
}
