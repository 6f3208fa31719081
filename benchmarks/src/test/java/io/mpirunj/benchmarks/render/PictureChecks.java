package io.mpirunj.benchmarks.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;

/** Checks that a rendered picture is a real drawing, not a blank or degenerate canvas. */
public final class PictureChecks {

    private PictureChecks() {
    }

    /** Reads the PNG back and checks size, ink coverage and colour variety. */
    public static BufferedImage assertNonTrivialPng(Path png, int minWidth, int minHeight, int minColours) throws IOException {
        assertTrue(Files.size(png) > 2_000, png + " is only " + Files.size(png) + " bytes");
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image != null, png + " is not a readable PNG");
        assertTrue(image.getWidth() >= minWidth, "width " + image.getWidth() + " < " + minWidth);
        assertTrue(image.getHeight() >= minHeight, "height " + image.getHeight() + " < " + minHeight);
        long ink = 0;
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                if (rgb != 0xFFFFFF) {
                    ink++;
                }
                // Quantise so anti-aliasing shades do not count as separate colours.
                colours.add(rgb & 0xF0F0F0);
            }
        }
        double fraction = (double) ink / ((long) image.getWidth() * image.getHeight());
        assertTrue(fraction > 0.01, "only " + fraction + " of the pixels are drawn");
        assertTrue(fraction < 0.95, fraction + " of the pixels are drawn: background missing?");
        assertTrue(colours.size() >= minColours, "only " + colours.size() + " distinct colours");
        return image;
    }

    /** True when some pixel is close to {@code rgb}. */
    public static boolean hasColour(BufferedImage image, int rgb, int tolerance) {
        int r0 = (rgb >> 16) & 0xFF;
        int g0 = (rgb >> 8) & 0xFF;
        int b0 = rgb & 0xFF;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                if (Math.abs(((p >> 16) & 0xFF) - r0) <= tolerance && Math.abs(((p >> 8) & 0xFF) - g0) <= tolerance
                        && Math.abs((p & 0xFF) - b0) <= tolerance) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A well-formed-looking SVG document with drawn lines and text. */
    public static String assertSvg(Path svg) throws IOException {
        return assertSvg(svg, true);
    }

    /**
     * A well-formed-looking SVG document with drawn lines, and {@code <text>} elements when
     * {@code withText} (XChart draws its text as outlines, so charts have none).
     */
    public static String assertSvg(Path svg, boolean withText) throws IOException {
        String text = Files.readString(svg);
        assertTrue(text.startsWith("<?xml") || text.startsWith("<svg"), "not an SVG document");
        assertTrue(text.contains("<svg"), "no <svg element");
        assertTrue(text.trim().endsWith("</svg>"), "SVG not closed");
        assertTrue(text.contains("<line") || text.contains("<path"), "no <line or <path elements");
        assertTrue(!withText || text.contains("<text"), "no <text elements");
        assertEquals(count(text, "<svg"), count(text, "</svg>"), "unbalanced <svg>");
        return text;
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
