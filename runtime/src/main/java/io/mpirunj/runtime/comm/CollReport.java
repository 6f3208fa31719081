package io.mpirunj.runtime.comm;

import io.mpirunj.runtime.spi.CallShape;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.Selection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code --coll-report}: which algorithm each collective of this rank ran, per operation and size class, how
 * often, and how long the calls took on this rank (from its call to its return, or for a non-blocking one to
 * its request's completion). At
 * exit rank 0 gathers every rank's counts ({@link #encode}/{@link #decode}) and prints one table
 * ({@link #format}). Thread-safe: a rank may call collectives from several threads.
 */
public final class CollReport {

    /**
     * One line of the table: what ran, chosen how, and (for {@code auto}) what the model predicted; a non-blocking
     * call's line is its own ({@code ibcast}: its time runs to the request's completion).
     */
    public record Key(CollectiveOp op, long sizeClass, String algorithm, String source, double predicted,
            String unit, boolean nonBlocking) {

        /** A blocking call's line. */
        public Key(CollectiveOp op, long sizeClass, String algorithm, String source, double predicted, String unit) {
            this(op, sizeClass, algorithm, source, predicted, unit, false);
        }

        /** {@code bcast}, or {@code ibcast} for the non-blocking call. */
        public String opLabel() {
            return (nonBlocking ? "i" : "") + op.cliName();
        }
    }

    /** One rank's totals for a key. */
    public record Totals(long calls, long nanos) {
    }

    private final Map<Key, long[]> totals = new ConcurrentHashMap<>();

    /** Adds one call of {@code op} with {@code bytes} (-1: no agreed size) that took {@code nanos}, as {@code s} chose. */
    public void record(CollectiveOp op, long bytes, Selection s, long nanos) {
        record(op, bytes, s, null, nanos);
    }

    /**
     * Adds one call of {@code op} with {@code bytes} (-1: no agreed size) that took {@code nanos}: {@code s} chose it,
     * and {@code ranInstead} ran in the chosen algorithm's place (null: the chosen one ran).
     */
    public void record(CollectiveOp op, long bytes, Selection s, CollectiveAlgorithm ranInstead, long nanos) {
        record(op, bytes, s, ranInstead, nanos, false);
    }

    /** As {@link #record(CollectiveOp, long, Selection, CollectiveAlgorithm, long)}, for a non-blocking call too. */
    public void record(CollectiveOp op, long bytes, Selection s, CollectiveAlgorithm ranInstead, long nanos,
            boolean nonBlocking) {
        long sizeClass = CallShape.sizeClass(bytes);
        Key key = ranInstead == null
                ? new Key(op, sizeClass, s.algorithm().name(), s.source().label(), s.predicted(), s.unit(), nonBlocking)
                // no prediction: it was the chosen one's, not of what ran
                : new Key(op, sizeClass, ranInstead.name(), s.source().label() + " " + s.algorithm().name()
                        + ", fell back", Double.NaN, null, nonBlocking);
        long[] t = totals.computeIfAbsent(key, k -> new long[2]);
        synchronized (t) {
            t[0]++;
            t[1] += nanos;
        }
    }

    /** This rank's totals, in a stable order. */
    public Map<Key, Totals> snapshot() {
        Map<Key, Totals> out = new LinkedHashMap<>();
        totals.entrySet().stream().sorted(Map.Entry.comparingByKey(ORDER)).forEach(e -> {
            long[] t = e.getValue();
            synchronized (t) {
                out.put(e.getKey(), new Totals(t[0], t[1]));
            }
        });
        return out;
    }

    private static final Comparator<Key> ORDER = Comparator.<Key>comparingInt(k -> k.op().ordinal())
            .thenComparing(Key::nonBlocking).thenComparingLong(Key::sizeClass).thenComparing(Key::algorithm).thenComparing(Key::source);

    /** This rank's totals as bytes for rank 0 (tab-separated lines). */
    public byte[] encode() {
        StringBuilder b = new StringBuilder();
        snapshot().forEach((k, t) -> b.append(k.op().cliName()).append('\t').append(k.sizeClass()).append('\t')
                .append(k.algorithm()).append('\t').append(k.source()).append('\t').append(k.predicted()).append('\t')
                .append(k.unit() == null ? "" : k.unit()).append('\t').append(t.calls()).append('\t')
                .append(t.nanos()).append('\t').append(k.nonBlocking()).append('\n'));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The inverse of {@link #encode}. */
    public static Map<Key, Totals> decode(byte[] bytes) {
        Map<Key, Totals> out = new LinkedHashMap<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            out.put(new Key(CollectiveOp.fromCliName(f[0]), Long.parseLong(f[1]), f[2], f[3], Double.parseDouble(f[4]),
                    f[5].isEmpty() ? null : f[5], Boolean.parseBoolean(f[8])),
                    new Totals(Long.parseLong(f[6]), Long.parseLong(f[7])));
        }
        return out;
    }

    /**
     * The table of every rank's totals: per key, the calls on one rank (the most any rank made), how many
     * ranks ran it, the mean time per call over all ranks' calls and the slowest rank's mean, in µs.
     */
    public static String format(List<Map<Key, Totals>> perRank) {
        Map<Key, long[]> merged = new java.util.TreeMap<>(ORDER.thenComparingDouble(Key::predicted));
        Map<Key, Double> slowest = new LinkedHashMap<>();
        for (Map<Key, Totals> rank : perRank) {
            rank.forEach((k, t) -> {
                long[] m = merged.computeIfAbsent(k, x -> new long[3]);
                m[0] = Math.max(m[0], t.calls());
                m[1] += t.calls();
                m[2] += t.nanos();
                double mean = t.calls() == 0 ? 0 : t.nanos() / 1e3 / t.calls();
                slowest.merge(k, mean, Math::max);
            });
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"op", "size", "algorithm", "chosen-by", "calls", "ranks", "mean-us", "slowest-rank-us",
            "predicted"});
        merged.forEach((k, m) -> {
            long ranks = perRank.stream().filter(r -> r.containsKey(k)).count();
            rows.add(new String[] {k.opLabel(), sizeLabel(k.sizeClass()), k.algorithm(), k.source(),
                Long.toString(m[0]), Long.toString(ranks), String.format(Locale.ROOT, "%.1f", m[2] / 1e3 / m[1]),
                String.format(Locale.ROOT, "%.1f", slowest.get(k)),
                Double.isNaN(k.predicted()) ? "-" : String.format(Locale.ROOT, "%.6g %s", k.predicted(),
                        k.unit() == null ? "model units" : k.unit())});
        });
        int[] width = new int[rows.get(0).length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder("collective report (--coll-report), " + perRank.size()
                + " ranks: per operation and size class, the algorithm that ran, how it was chosen, calls per rank, "
                + "and the time from a rank's call to its return (i...: to its request's completion)\n");
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                boolean left = i < 4;
                b.append(i == 0 ? "" : "  ").append(left ? String.format("%-" + width[i] + "s", r[i])
                        : String.format("%" + width[i] + "s", r[i]));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** {@code <= 64 KiB} for a size class; {@code -} for calls without an agreed size. */
    static String sizeLabel(long sizeClass) {
        if (sizeClass < 0) {
            return "-";
        }
        if (sizeClass == 0) {
            return "0 B";
        }
        String[] units = {"B", "KiB", "MiB", "GiB"};
        int u = 0;
        long v = sizeClass;
        while (v >= 1024 && v % 1024 == 0 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return "<=" + v + " " + units[u];
    }
}
