package io.mpirunj.benchmarks.render;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javax.imageio.ImageIO;
import org.jfree.svg.SVGGraphics2D;

/**
 * A finished drawing of a fixed size, written once against {@link Graphics2D} and exported as
 * PNG (a {@link BufferedImage} through {@link ImageIO}) or SVG (JFreeSVG's
 * {@link SVGGraphics2D}) from the same code. Immutable; rendering is repeatable and
 * thread-safe as long as the painter is (all painters in this package are).
 *
 * <p>Rendering is headless: loading this class sets {@code java.awt.headless=true} unless the
 * property was set explicitly.
 */
public final class Picture {

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** Draws the picture on a white canvas of the picture's size. */
    @FunctionalInterface
    public interface Painter {
        void paint(Graphics2D g);
    }

    private final String title;
    private final int width;
    private final int height;
    private final Painter painter;

    private Picture(String title, int width, int height, Painter painter) {
        this.title = Objects.requireNonNull(title, "title");
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("width=" + width + " height=" + height + " (expected: >= 1)");
        }
        this.width = width;
        this.height = height;
        this.painter = Objects.requireNonNull(painter, "painter");
    }

    /** A picture of {@code width x height} pixels drawn by {@code painter}. */
    public static Picture of(String title, int width, int height, Painter painter) {
        return new Picture(title, width, height, painter);
    }

    /** Short description, used as alt text and caption in reports. */
    public String title() {
        return title;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Paints the picture, white background included, on {@code g} (origin top left). */
    public void paint(Graphics2D g) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        painter.paint(g);
    }

    /** Renders into a new RGB image. */
    public BufferedImage toImage() {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            paint(g);
        } finally {
            g.dispose();
        }
        return image;
    }

    /** The PNG file's bytes. */
    public byte[] toPng() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(toImage(), "png", out)) {
                throw new IllegalStateException("no PNG writer available in this JVM");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A standalone SVG document (text stays text: labels are {@code <text>} elements). */
    public String toSvg() {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        paint(g);
        return g.getSVGDocument();
    }

    /** Writes the PNG, creating parent directories; returns {@code file}. */
    public Path writePng(Path file) throws IOException {
        createParent(file);
        Files.write(file, toPng());
        return file;
    }

    /** Writes the SVG, creating parent directories; returns {@code file}. */
    public Path writeSvg(Path file) throws IOException {
        createParent(file);
        Files.writeString(file, toSvg());
        return file;
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    @Override
    public String toString() {
        return "Picture[" + title + ", " + width + "x" + height + "]";
    }
}
