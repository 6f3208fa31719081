package io.mpirunj.benchmarks.render;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** XChart line charts as {@link Picture}s, so charts export to PNG and SVG like the schedule pictures. */
public final class Charts {

    /**
     * One line: {@code x[i], y[i]} pairs, same length. {@code style} picks colour, marker and
     * dash (so a series keeps its look across charts); -1 uses the series' position.
     */
    public record Series(String name, double[] x, double[] y, int style) {

        public Series(String name, double[] x, double[] y) {
            this(name, x, y, -1);
        }

        public Series {
            Objects.requireNonNull(name, "name");
            if (x.length != y.length) {
                throw new IllegalArgumentException("series " + name + ": x has " + x.length + " points, y has "
                        + y.length + " (expected: equal)");
            }
            x = x.clone();
            y = y.clone();
        }
    }

    private static final org.knowm.xchart.style.markers.Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE, SeriesMarkers.TRIANGLE_UP,
        SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.OVAL, SeriesMarkers.RECTANGLE,
    };

    private Charts() {
    }

    /**
     * A line chart, one line per series (colour, marker shape and solid/dashed vary by index so
     * coinciding series stay distinguishable), legend outside on the right.
     */
    public static Picture line(String title, String xTitle, String yTitle, List<Series> series, int width, int height) {
        XYChart chart = new XYChartBuilder().width(width).height(height).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        XYStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(Draw.GRID);
        styler.setChartTitleFont(Draw.TITLE);
        styler.setLegendFont(Draw.LABEL);
        styler.setAxisTitleFont(Draw.SUBTITLE);
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        chart.getStyler().setMarkerSize(5);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            int style = s.style() >= 0 ? s.style() : i;
            XYSeries xy = chart.addSeries(s.name(), s.x(), s.y());
            xy.setLineColor(Draw.series(style));
            xy.setMarkerColor(Draw.series(style));
            xy.setMarker(MARKERS[style % MARKERS.length]);
            // Alternate solid and dashed so coinciding series stay visible.
            xy.setLineStyle(style % 2 == 0 ? new BasicStroke(2f)
                    : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 4f}, 0f));
        }
        return Picture.of(title, width, height, g -> chart.paint(g, width, height));
    }
}
