package io.mpirunj.benchmarks.render;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.util.List;
import java.util.Locale;

/** Drawing helpers shared by the painters: fonts, the step palette, text boxes, arrows, ticks. */
final class Draw {

    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    static final Font SUBTITLE = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    static final Font NODE = new Font(Font.SANS_SERIF, Font.BOLD, 12);
    static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

    static final Color INK = new Color(0x22, 0x22, 0x22);
    static final Color MUTED = new Color(0x77, 0x77, 0x77);
    static final Color GRID = new Color(0xDD, 0xDD, 0xDD);
    static final Color ALERT = new Color(0xD6, 0x27, 0x28);

    /** Tableau 10: distinct, print-friendly colours for steps and series. */
    private static final Color[] PALETTE = {
        new Color(0x1F77B4), new Color(0xFF7F0E), new Color(0x2CA02C), new Color(0x9467BD),
        new Color(0x8C564B), new Color(0xE377C2), new Color(0x17BECF), new Color(0xBCBD22),
        new Color(0x7F7F7F), new Color(0xAEC7E8),
    };

    private Draw() {
    }

    /** Colour of step {@code step} (steps are 1-based; 0 and below share the first colour). */
    static Color step(int step) {
        return PALETTE[Math.floorMod(Math.max(step, 1) - 1, PALETTE.length)];
    }

    static Color series(int index) {
        return PALETTE[Math.floorMod(index, PALETTE.length)];
    }

    static Stroke stroke(float width) {
        return new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    }

    static Stroke dashed(float width) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f);
    }

    static Color lighter(Color c, double towardsWhite) {
        int r = (int) Math.round(c.getRed() + (255 - c.getRed()) * towardsWhite);
        int gr = (int) Math.round(c.getGreen() + (255 - c.getGreen()) * towardsWhite);
        int b = (int) Math.round(c.getBlue() + (255 - c.getBlue()) * towardsWhite);
        return new Color(r, gr, b);
    }

    static int width(Graphics2D g, Font font, String text) {
        return g.getFontMetrics(font).stringWidth(text);
    }

    /** Draws {@code text} with its left end at x and its baseline at y. */
    static void text(Graphics2D g, Font font, Color color, String text, double x, double y) {
        g.setFont(font);
        g.setColor(color);
        g.drawString(text, (float) x, (float) y);
    }

    /** Draws {@code text} centred on (cx, cy). */
    static void centred(Graphics2D g, Font font, Color color, String text, double cx, double cy) {
        g.setFont(font);
        FontMetrics fm = g.getFontMetrics();
        g.setColor(color);
        g.drawString(text, (float) (cx - fm.stringWidth(text) / 2.0),
                (float) (cy + (fm.getAscent() - fm.getDescent()) / 2.0));
    }

    /** Lines of text centred on (cx, cy) in a white rounded box with a thin border of {@code border}. */
    static Rectangle2D box(Graphics2D g, Font font, Color textColor, Color border, double cx, double cy, String... lines) {
        g.setFont(font);
        FontMetrics fm = g.getFontMetrics();
        int w = 0;
        for (String line : lines) {
            w = Math.max(w, fm.stringWidth(line));
        }
        int lineHeight = fm.getAscent() + fm.getDescent();
        double bw = w + 8;
        double bh = lineHeight * lines.length + 4;
        double x = cx - bw / 2;
        double y = cy - bh / 2;
        RoundRectangle2D r = new RoundRectangle2D.Double(x, y, bw, bh, 6, 6);
        g.setColor(new Color(255, 255, 255, 235));
        g.fill(r);
        g.setColor(border);
        g.setStroke(stroke(0.8f));
        g.draw(r);
        g.setColor(textColor);
        for (int i = 0; i < lines.length; i++) {
            double lw = fm.stringWidth(lines[i]);
            g.drawString(lines[i], (float) (cx - lw / 2), (float) (y + 2 + fm.getAscent() + i * lineHeight));
        }
        return r.getBounds2D();
    }

    static void line(Graphics2D g, double x1, double y1, double x2, double y2) {
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    /** A line from (x1, y1) to (x2, y2) ending in a filled arrowhead of length {@code head}. */
    static void arrow(Graphics2D g, double x1, double y1, double x2, double y2, double head) {
        line(g, x1, y1, x2, y2);
        arrowHead(g, x1, y1, x2, y2, head);
    }

    static void arrowHead(Graphics2D g, double x1, double y1, double x2, double y2, double head) {
        double angle = Math.atan2(y2 - y1, x2 - x1);
        Path2D.Double tip = new Path2D.Double();
        tip.moveTo(x2, y2);
        tip.lineTo(x2 - head * Math.cos(angle - 0.4), y2 - head * Math.sin(angle - 0.4));
        tip.lineTo(x2 - head * Math.cos(angle + 0.4), y2 - head * Math.sin(angle + 0.4));
        tip.closePath();
        g.fill(tip);
    }

    static void disc(Graphics2D g, double cx, double cy, double r, Color fill, Color outline) {
        Ellipse2D.Double e = new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r);
        g.setColor(fill);
        g.fill(e);
        if (outline != null) {
            g.setColor(outline);
            g.setStroke(stroke(1.5f));
            g.draw(e);
        }
    }

    /** A red X of half-size {@code r} on (cx, cy): contention. */
    static void cross(Graphics2D g, double cx, double cy, double r) {
        g.setColor(ALERT);
        g.setStroke(stroke(3f));
        line(g, cx - r, cy - r, cx + r, cy + r);
        line(g, cx - r, cy + r, cx + r, cy - r);
    }

    /** A tick spacing of 1, 2 or 5 x 10^n giving about {@code target} ticks over [0, max]. */
    static double tickStep(double max, int target) {
        if (!(max > 0)) {
            return 1;
        }
        double raw = max / Math.max(1, target);
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double[] steps = {1, 2, 5, 10};
        for (double s : steps) {
            if (s * magnitude >= raw) {
                return s * magnitude;
            }
        }
        return 10 * magnitude;
    }

    /** Model-time text: integral values without a fraction, others with up to 3 decimals. */
    static String time(double t) {
        if (t == Math.rint(t) && Math.abs(t) < 1e15) {
            return Long.toString((long) t);
        }
        String s = String.format(Locale.ROOT, "%.3f", t);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** A legend entry: a swatch drawn by {@code swatch} in a 22x12 box at (x, y), then the text. Returns the x after it. */
    static double legendEntry(Graphics2D g, double x, double y, String text, Swatch swatch) {
        swatch.draw(g, x, y, 22, 12);
        text(g, LABEL, INK, text, x + 27, y + 10);
        return x + 27 + width(g, LABEL, text) + 18;
    }

    /** Width a legend entry takes. */
    static double legendWidth(Graphics2D g, String text) {
        return 27 + width(g, LABEL, text) + 18;
    }

    /** Font metrics outside any painting, for sizing a picture before it is drawn. */
    static FontMetrics metrics(Font font) {
        return SCRATCH.getFontMetrics(font);
    }

    private static final Graphics2D SCRATCH = new java.awt.image.BufferedImage(1, 1,
            java.awt.image.BufferedImage.TYPE_INT_RGB).createGraphics();

    /** One legend item. */
    record LegendItem(String text, Swatch swatch) {
    }

    /** Height {@link #legend} takes for {@code items} wrapped at {@code maxWidth}. */
    static double legendHeight(List<LegendItem> items, double maxWidth) {
        return legendRows(items, maxWidth) * 18.0;
    }

    private static int legendRows(List<LegendItem> items, double maxWidth) {
        FontMetrics fm = metrics(LABEL);
        int rows = items.isEmpty() ? 0 : 1;
        double x = 0;
        for (LegendItem item : items) {
            double w = 27 + fm.stringWidth(item.text()) + 18;
            if (x > 0 && x + w > maxWidth) {
                rows++;
                x = 0;
            }
            x += w;
        }
        return rows;
    }

    /** Draws the items left to right from (x, y), wrapping at {@code maxWidth}; returns the height used. */
    static double legend(Graphics2D g, double x, double y, double maxWidth, List<LegendItem> items) {
        double cx = x;
        double cy = y;
        for (LegendItem item : items) {
            double w = legendWidth(g, item.text());
            if (cx > x && cx - x + w > maxWidth) {
                cx = x;
                cy += 18;
            }
            cx = legendEntry(g, cx, cy, item.text(), item.swatch());
        }
        return legendHeight(items, maxWidth);
    }

    @FunctionalInterface
    interface Swatch {
        void draw(Graphics2D g, double x, double y, double w, double h);
    }

    static Swatch filled(Color c) {
        return (g, x, y, w, h) -> {
            g.setColor(c);
            g.fill(new Rectangle2D.Double(x, y + 1, w, h - 2));
        };
    }

    static Swatch stroked(Color c, Stroke s) {
        return (g, x, y, w, h) -> {
            g.setColor(c);
            g.setStroke(s);
            line(g, x, y + h / 2, x + w, y + h / 2);
        };
    }
}
